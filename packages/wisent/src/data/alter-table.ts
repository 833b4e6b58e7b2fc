/**
 * Changing a table in a migration: the portable column types of `createTable`, one statement per
 * change so SQLite (which alters one thing at a time) runs the same migrations as PostgreSQL
 * and MySQL/MariaDB.
 * @module
 */
import { type ColumnDataType, type Kysely, sql } from "kysely";
import { WisentError } from "../base/wisent-error.js";
import type { AnyDB } from "./any-db.js";
import { type ColumnSpec, createColumnIndexes, indexName, TableBuilder } from "./create-table.js";
import { dialectOf } from "./dialect-of.js";

/**
 * Adds the columns declared in `define` to `table`, with the types of `createTable` (NOT NULL
 * unless `.nullable()`; a NOT NULL column needs a `.default(...)` when the table has rows, and
 * always on SQLite). A `t.references(...)` column gets its foreign key and an index, a
 * `.unique()` one a unique index and an `.index()` one an index (`<table>_<column>_idx`).
 *
 * @param db - the migration's database (Kysely, or the `Database`'s `kysely`)
 * @param table - the table to change
 * @param define - declares the columns on the table builder `t`
 * @throws WisentError `E_MIGRATION` when `define` declares no column; Error of the database when it refuses a column
 *   (a NOT NULL column without a default on a table with rows)
 * @example
 * export async function up(db: Queryable) {
 *   await addColumn(db, "posts", (t) => {
 *     t.text("summary").nullable();
 *     t.integer("views").default(0);
 *   });
 * }
 */
export async function addColumn(
  db: Kysely<AnyDB>,
  table: string,
  define: (t: TableBuilder) => void,
): Promise<void> {
  const dialect = dialectOf(db);
  const t = new TableBuilder(dialect);
  define(t);
  if (t.columns.length === 0)
    throw new WisentError("E_MIGRATION", `addColumn("${table}"): no columns declared`);
  for (const c of t.columns) {
    await db.schema
      .alterTable(table)
      .addColumn(c.name, c.type as ColumnDataType, (col) => {
        let out = c.nullable ? col : col.notNull();
        if (c.primary) out = out.primaryKey();
        if (c.defaultValue !== undefined) out = out.defaultTo(c.defaultValue);
        // SQLite cannot add a constraint to a table, only a column that carries one; MySQL
        // ignores REFERENCES in a column definition, so it gets a constraint below.
        if (c.references && dialect !== "mysql") {
          const ref = c.references;
          out = out.references(`${ref.table}.${ref.column}`).onDelete(ref.onDelete);
        }
        return out;
      })
      .execute();
    if (c.references && dialect === "mysql") await addReference(db, table, c);
  }
  await createColumnIndexes(db, table, t.columns);
}

/** MySQL's foreign key, as a constraint (it ignores REFERENCES in a column definition). */
async function addReference(db: Kysely<AnyDB>, table: string, c: ColumnSpec): Promise<void> {
  const ref = c.references!;
  await db.schema
    .alterTable(table)
    .addForeignKeyConstraint(`${table}_${c.name}_fkey`, [c.name], ref.table, [ref.column], (fk) =>
      fk.onDelete(ref.onDelete),
    )
    .execute();
}

/**
 * Drops columns from `table` (an index on a column goes first: `dropIndex`).
 *
 * @param db - the migration's database (Kysely, or the `Database`'s `kysely`)
 * @param table - the table to change
 * @param columns - the columns to drop, one statement each
 * @example
 * export async function up(db: Queryable) { await dropColumn(db, "posts", "summary"); }
 */
export async function dropColumn(
  db: Kysely<AnyDB>,
  table: string,
  ...columns: [string, ...string[]]
): Promise<void> {
  for (const column of columns) await db.schema.alterTable(table).dropColumn(column).execute();
}

/**
 * Renames a column, keeping its type and data.
 *
 * @param db - the migration's database (Kysely, or the `Database`'s `kysely`)
 * @param table - the table to change
 * @param from - the column's name now
 * @param to - its new name
 * @example
 * await renameColumn(db, "posts", "body", "content");
 */
export async function renameColumn(
  db: Kysely<AnyDB>,
  table: string,
  from: string,
  to: string,
): Promise<void> {
  await db.schema.alterTable(table).renameColumn(from, to).execute();
}

/** Options of `addIndex`. */
export interface IndexOptions {
  /** A UNIQUE index. */
  unique?: boolean;
  /** The index name (default `<table>_<columns>_idx`, the name `dropIndex` finds). */
  name?: string;
}

/**
 * Adds an index on one column or several (in that order).
 *
 * @param db - the migration's database (Kysely, or the `Database`'s `kysely`)
 * @param table - the table to index
 * @param columns - a column, or the columns in the index's order
 * @param options - `unique`, and a `name` other than {@link indexName}'s
 * @throws WisentError `E_MIGRATION` when no column is given
 * @example
 * await addIndex(db, "posts", "slug", { unique: true });
 * await addIndex(db, "posts", ["author_id", "created_at"]);
 */
export async function addIndex(
  db: Kysely<AnyDB>,
  table: string,
  columns: string | readonly string[],
  options: IndexOptions = {},
): Promise<void> {
  const list = [columns].flat();
  if (list.length === 0) throw new WisentError("E_MIGRATION", `addIndex("${table}"): no columns`);
  let builder = db.schema
    .createIndex(options.name ?? indexName(table, list))
    .on(table)
    .columns(list);
  if (options.unique) builder = builder.unique();
  await builder.execute();
}

/**
 * Drops the index `addIndex` made on these columns (or the one named `{ name }`).
 *
 * @param db - the migration's database (Kysely, or the `Database`'s `kysely`)
 * @param table - the index's table
 * @param columns - the columns `addIndex` was given, or `{ name }`
 * @example
 * await dropIndex(db, "posts", "slug");
 */
export async function dropIndex(
  db: Kysely<AnyDB>,
  table: string,
  columns: string | readonly string[] | { name: string },
): Promise<void> {
  const name =
    typeof columns === "object" && "name" in columns ? columns.name : indexName(table, columns);
  // MySQL names an index within its table (`drop index i on t`); the others within the schema.
  if (dialectOf(db) === "mysql") {
    await sql`drop index ${sql.id(name)} on ${sql.id(table)}`.execute(db);
  } else {
    await db.schema.dropIndex(name).execute();
  }
}
