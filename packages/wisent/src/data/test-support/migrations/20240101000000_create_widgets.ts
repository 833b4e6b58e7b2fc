import type { Kysely } from "kysely";
import { createTable, dropTable } from "../../create-table.js";

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTable(db, "widgets", (t) => {
    t.uuid("id").primary();
    t.string("title");
    t.text("description").nullable();
    t.timestamps();
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTable(db, "widgets");
}
