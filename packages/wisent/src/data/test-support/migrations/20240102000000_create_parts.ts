import type { Kysely } from "kysely";
import { createTable, dropTable } from "../../create-table.js";

/** Every portable column type, and a foreign key to widgets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createTable(db, "parts", (t) => {
    t.uuid("id").primary();
    t.references("widget_id", "widgets");
    t.string("name", 80).unique();
    t.integer("quantity").default(0);
    t.boolean("in_stock");
    t.decimal("price", 10, 2);
    t.timestamp("shipped_at").nullable();
    t.date("made_on");
    t.json("specs").nullable();
    t.timestamps();
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTable(db, "parts");
}
