// As `wisent g r widget title description:nulls.Text` writes it (a .ts file in a generated app).
import { createTable, dropTable } from "wisent";

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
