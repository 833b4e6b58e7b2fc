import { createTable, dropTable } from "wisent";

export async function up(db) {
  await createTable(db, "images", (t) => {
    t.uuid("id").primary();
    t.references("widget_id", "widgets");
    t.string("caption");
    t.timestamps();
  });
}

export async function down(db) {
  await dropTable(db, "images");
}
