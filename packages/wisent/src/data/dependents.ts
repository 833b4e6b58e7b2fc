import { sql } from "kysely";
import { HttpError } from "../base/http-error.js";
import { pluralize, singularize } from "../naming/index.js";
import { dialectOf } from "./dialect-of.js";
import type { Queryable } from "./queryable.js";

/** Rows of one table that point to a record and keep it from being deleted. */
export interface Dependents {
  /** The table whose rows point to the record: `books`. */
  readonly table: string;
  /** Its foreign key column: `author_id`. */
  readonly column: string;
  readonly count: number;
}

/**
 * Thrown by a model's `destroy` when rows of other tables point to the record through a
 * foreign key that restricts deletes: a 409 naming them (`Author has 11 books.`); nothing was
 * deleted.
 */
export class DependentRecordsError extends HttpError {
  override name = "DependentRecordsError";
  /**
   * @param model - the model's name, for the message (`author`)
   * @param dependents - the rows that point to the record, per table
   */
  constructor(
    model: string,
    readonly dependents: readonly Dependents[],
  ) {
    super(409, dependentsMessage(model, dependents), { code: "E_DEPENDENT_RECORDS" });
  }
}

/** `Author has 11 books and 1 review.` (the table names spoken, singular for one). */
export function dependentsMessage(model: string, dependents: readonly Dependents[]): string {
  const subject = model.charAt(0).toUpperCase() + model.slice(1).replace(/_/g, " ");
  const parts = dependents.map(({ table, count }) => {
    const words = table.replace(/_/g, " ");
    return `${count} ${count === 1 ? singularize(words) : pluralize(singularize(words))}`;
  });
  if (parts.length === 0) return `${subject} has dependent records.`;
  const list =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${subject} has ${list}.`;
}

interface ForeignKey {
  table: string;
  column: string;
}

/**
 * The foreign keys that point to `table` and refuse its rows' deletion (RESTRICT or NO ACTION),
 * read from the database's catalog: so that hand-written migrations count as well.
 */
async function restrictingKeys(db: Queryable, table: string): Promise<ForeignKey[]> {
  const dialect = dialectOf(db);
  if (dialect === "sqlite") {
    const { rows } = await sql<ForeignKey & { on_delete: string }>`
      select m.name as "table", p."from" as "column", p.on_delete as on_delete
      from sqlite_master m join pragma_foreign_key_list(m.name) p
      where m.type = 'table' and p."table" = ${table}`.execute(db);
    return rows.filter((r) => /^(RESTRICT|NO ACTION)$/i.test(r.on_delete));
  }
  if (dialect === "postgres") {
    // confdeltype: a = no action, r = restrict (c cascade, n set null, d set default).
    const { rows } = await sql<ForeignKey>`
      select cl.relname as "table", a.attname as "column"
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = to_regclass(${table})
        and c.confdeltype in ('a', 'r')`.execute(db);
    return rows;
  }
  const { rows } = await sql<ForeignKey>`
    select k.TABLE_NAME as \`table\`, k.COLUMN_NAME as \`column\`
    from information_schema.KEY_COLUMN_USAGE k
    join information_schema.REFERENTIAL_CONSTRAINTS r
      on r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA and r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
    where k.REFERENCED_TABLE_SCHEMA = database() and k.REFERENCED_TABLE_NAME = ${table}
      and r.DELETE_RULE in ('RESTRICT', 'NO ACTION')`.execute(db);
  return rows;
}

/**
 * The rows that keep the record `id` of `table` from being deleted, per table, counted (tables
 * with none left out).
 *
 * @param db - the database or a transaction
 * @param table - the record's table
 * @param id - the record's id
 * @returns one entry per table with rows pointing to it through a restricting foreign key
 * @example
 * await dependentsOf(tx, "authors", author.id); // [{ table: "books", column: "author_id", count: 11 }]
 */
export async function dependentsOf(
  db: Queryable,
  table: string,
  id: string,
): Promise<Dependents[]> {
  const found: Dependents[] = [];
  for (const key of await restrictingKeys(db, table)) {
    const row = await db
      .selectFrom(key.table)
      .select((eb) => eb.fn.countAll().as("count"))
      .where(key.column, "=", id)
      .executeTakeFirst();
    const count = Number((row as { count?: unknown } | undefined)?.count ?? 0);
    if (count > 0) found.push({ ...key, count });
  }
  return found;
}

/**
 * The columns of `row` whose foreign key (read from SQLite's catalog) points at no row: SQLite's
 * foreign key error does not name them.
 */
export async function missingParentColumns(
  db: Queryable,
  table: string,
  row: Record<string, unknown>,
): Promise<string[]> {
  if (dialectOf(db) !== "sqlite") return [];
  const { rows: keys } = await sql<{ from: string; table: string; to: string | null }>`
    select "from", "table", "to" from pragma_foreign_key_list(${table})`.execute(db);
  const missing: string[] = [];
  for (const key of keys) {
    const value = row[key.from];
    if (value === null || value === undefined) continue;
    const found = await db
      .selectFrom(key.table)
      .select(sql<number>`1`.as("one"))
      .where(key.to ?? "id", "=", value as string)
      .executeTakeFirst();
    if (!found) missing.push(key.from);
  }
  return missing;
}
