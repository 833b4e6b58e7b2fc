// A plain .js migration: proves migrations load under plain node (no TypeScript loader).
import { createTable, dropTable } from "wisent/db";

export async function up(db) {
  await createTable(db, "widgets", (t) => {
    t.uuid("id").primary();
    t.string("title");
    t.text("description").nullable();
    t.timestamps();
  });
}

export async function down(db) {
  await dropTable(db, "widgets");
}
