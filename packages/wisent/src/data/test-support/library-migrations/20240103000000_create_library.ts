import type { Kysely } from "kysely";
import { createTable, dropTable } from "../../create-table.js";

/** Authors, their books (a unique ISBN, an indexed title, a price, restricting), their reviews (cascading). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createTable(db, "authors", (t) => {
    t.uuid("id").primary();
    t.string("name");
    t.timestamps();
  });
  await createTable(db, "books", (t) => {
    t.uuid("id").primary();
    t.references("author_id", "authors");
    t.string("isbn").unique();
    t.string("title").index();
    t.decimal("price", 12, 2);
    t.timestamps();
  });
  await createTable(db, "reviews", (t) => {
    t.uuid("id").primary();
    t.references("book_id", "books", { onDelete: "cascade" });
    t.text("body");
    t.timestamps();
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTable(db, "reviews");
  await dropTable(db, "books");
  await dropTable(db, "authors");
}
