import { type ColumnDataType, type CreateTableBuilder, type Kysely, sql } from "kysely";
import { WisentError } from "../base/wisent-error.js";
import type { AnyDB } from "./any-db.js";
import type { DialectName } from "./database-url.js";
import { dialectOf } from "./dialect-of.js";

type DataType = ColumnDataType | ReturnType<typeof sql.raw>;

/** What to do with rows that point to a deleted parent. */
export type ReferentialAction = "cascade" | "set null" | "restrict" | "no action";

/** A declared column (what `TableBuilder` methods record). */
export interface ColumnSpec {
  name: string;
  type: DataType;
  nullable: boolean;
  primary: boolean;
  unique: boolean;
  /** The columns a unique value is unique within (`user_id`: one per user), indexed before it. */
  uniqueScope?: readonly string[];
  /** A plain (non-unique) index on the column. */
  index: boolean;
  defaultValue?: unknown;
  references?: { table: string; column: string; onDelete: ReferentialAction };
}

/** A column being declared; columns are NOT NULL unless marked `nullable()`, as in Buffalo's fizz. */
export class ColumnBuilder {
  /** @param spec - the column's record in its table builder (made by `TableBuilder`) */
  constructor(private readonly spec: ColumnSpec) {}
  /**
   * Allows NULL.
   * @returns the column, for chaining
   */
  nullable(): this {
    this.spec.nullable = true;
    return this;
  }
  /**
   * Makes the column the primary key.
   * @returns the column, for chaining
   */
  primary(): this {
    this.spec.primary = true;
    return this;
  }
  /**
   * No two rows share a value: a unique index named `<table>_<column>_idx` (what `dropIndex`
   * finds), which a model's `unique` option answers as a 422 rather than a database error.
   * With a `scope`, no two rows with the same scope values do (Rails' `uniqueness: { scope:
   * :user_id }`): one index on the scope's columns and this one, `<table>_user_id_<column>_idx`
   * (`dropIndex(db, table, ["user_id", column])` finds it), matched by a model's
   * `unique: [{ field, scope }]`.
   *
   * @param options - `scope`: the column or columns the value is unique within
   * @returns the column, for chaining
   * @example
   * t.string("isbn").unique();                     // one ISBN in the whole table
   * t.string("name").unique({ scope: "user_id" }); // one name per user
   */
  unique(options: { scope?: string | readonly string[] } = {}): this {
    this.spec.unique = true;
    const scope = options.scope === undefined ? [] : [options.scope].flat();
    if (scope.length > 0) this.spec.uniqueScope = scope;
    else delete this.spec.uniqueScope;
    return this;
  }
  /**
   * An index on the column, `<table>_<column>_idx`, for lookups and ordering by it.
   * @returns the column, for chaining
   */
  index(): this {
    this.spec.index = true;
    return this;
  }
  /**
   * A default value for rows inserted without this column.
   * @param value - the value (a NOT NULL column added to a table with rows needs one)
   * @returns the column, for chaining
   */
  default(value: string | number | boolean): this {
    this.spec.defaultValue = value;
    return this;
  }
}

/**
 * Portable column types: each method picks the type that reads back the same JS value on SQLite,
 * PostgreSQL and MySQL/MariaDB (uuid: string, boolean: boolean, timestamp: Date, date: "YYYY-MM-DD",
 * json: parsed value, float and bigint: number, time: "HH:MM:SS"; decimal: exact text through a
 * model's `decimal()` field, "16.00").
 */
export class TableBuilder {
  readonly columns: ColumnSpec[] = [];
  /** @param dialect - the database the column types are picked for (`createTable` passes it) */
  constructor(readonly dialect: DialectName) {}

  #add(name: string, type: DataType): ColumnBuilder {
    const spec: ColumnSpec = {
      name,
      type,
      nullable: false,
      primary: false,
      unique: false,
      index: false,
    };
    this.columns.push(spec);
    return new ColumnBuilder(spec);
  }
  #pick(types: Record<DialectName, DataType>): DataType {
    return types[this.dialect];
  }

  /**
   * A UUID (Wisent's ids): `uuid` on PostgreSQL, `char(36)` on MySQL, text on SQLite.
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  uuid(name: string): ColumnBuilder {
    return this.#add(name, this.#pick({ postgres: "uuid", mysql: "char(36)", sqlite: "text" }));
  }
  /**
   * A short string, `varchar(length)` (default 255).
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   * @param length - the most characters it holds
   */
  string(name: string, length = 255): ColumnBuilder {
    return this.#add(name, `varchar(${length})`);
  }
  /**
   * Long text.
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  text(name: string): ColumnBuilder {
    return this.#add(name, "text");
  }
  /**
   * A 32-bit integer.
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  integer(name: string): ColumnBuilder {
    return this.#add(name, "integer");
  }
  /**
   * A 64-bit integer (`bigint`), read back as a number (the model keeps it to the safe range).
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  bigInteger(name: string): ColumnBuilder {
    return this.#add(name, "bigint");
  }
  /**
   * A floating-point number: `double precision` on PostgreSQL, `double` on MySQL, `real` on SQLite.
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  float(name: string): ColumnBuilder {
    return this.#add(
      name,
      this.#pick({ postgres: "double precision", mysql: sql.raw("double"), sqlite: "real" }),
    );
  }
  /**
   * A time of day, read back as `"HH:MM:SS"` (`time` on PostgreSQL and MySQL, text on SQLite).
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  time(name: string): ColumnBuilder {
    return this.#add(name, this.#pick({ postgres: "time", mysql: "time", sqlite: "text" }));
  }
  /**
   * A boolean (TINYINT(1) on MySQL, 0/1 on SQLite; both read back as true/false).
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  boolean(name: string): ColumnBuilder {
    return this.#add(name, "boolean");
  }
  /**
   * An exact number, `decimal(precision, scale)` (default 12, 2). A model's `decimal(p, s)` field
   * reads it back as text with its scale (`"16.00"`) on every database (PostgreSQL and MySQL
   * return text, SQLite, which has no exact decimals, a number exact to 15 significant digits).
   * @param name - the column's name
   * @param precision - digits in all
   * @param scale - digits after the point
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  decimal(name: string, precision = 12, scale = 2): ColumnBuilder {
    return this.#add(name, `decimal(${precision}, ${scale})`);
  }
  /**
   * A point in time: `timestamptz` on PostgreSQL, `datetime(3)` (UTC) on MySQL, ISO text on SQLite.
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  timestamp(name: string): ColumnBuilder {
    return this.#add(
      name,
      this.#pick({ postgres: "timestamptz", mysql: sql.raw("datetime(3)"), sqlite: "timestamp" }),
    );
  }
  /**
   * A calendar day, read back as `"YYYY-MM-DD"`.
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  date(name: string): ColumnBuilder {
    return this.#add(name, "date");
  }
  /**
   * A JSON document (`jsonb` on PostgreSQL).
   * @param name - the column's name
   * @returns the column, to make `nullable()`, `unique()`, `index()`, `primary()` or give a `default()`
   */
  json(name: string): ColumnBuilder {
    return this.#add(name, this.#pick({ postgres: "jsonb", mysql: "json", sqlite: "json" }));
  }
  /**
   * A foreign key: a uuid column pointing to `table.id`, indexed. A parent that rows point to
   * cannot be deleted (`restrict`, as Rails and Laravel do; a model's `destroy` answers 409
   * naming them) unless `onDelete` says otherwise: `cascade` deletes them with it.
   *
   * @param name - the column's name (`author_id`)
   * @param table - the table it points to
   * @param options - the `column` pointed to (default `id`) and `onDelete` (default `restrict`)
   * @returns the column
   * @example
   * t.references("author_id", "authors");
   * t.references("author_id", "authors", { onDelete: "cascade" });
   */
  references(
    name: string,
    table: string,
    options: { column?: string; onDelete?: ReferentialAction } = {},
  ): ColumnBuilder {
    const column = this.uuid(name);
    this.columns[this.columns.length - 1]!.references = {
      table,
      column: options.column ?? "id",
      onDelete: options.onDelete ?? "restrict",
    };
    return column;
  }
  /** `created_at` and `updated_at`, both NOT NULL timestamps, managed by the model helpers. */
  timestamps(): void {
    this.timestamp("created_at");
    this.timestamp("updated_at");
  }
}

/**
 * Creates a table with portable column types; for migrations that run on every dialect.
 * Foreign keys, unique and plain indexes are made with it.
 *
 * @param db - the migration's database (Kysely)
 * @param table - the new table's name
 * @param define - declares the columns on the table builder `t`
 * @throws WisentError `E_MIGRATION` when `define` declares no column; Error of the database when it refuses the table
 *   (one that exists already)
 * @example
 * export async function up(db: Kysely<AnyDB>) {
 *   await createTable(db, "widgets", (t) => {
 *     t.uuid("id").primary();
 *     t.string("title");
 *     t.text("description").nullable();
 *     t.timestamps();
 *   });
 * }
 */
export async function createTable(
  db: Kysely<AnyDB>,
  table: string,
  define: (t: TableBuilder) => void,
): Promise<void> {
  const t = new TableBuilder(dialectOf(db));
  define(t);
  if (t.columns.length === 0)
    throw new WisentError("E_MIGRATION", `createTable("${table}"): no columns declared`);
  let builder: CreateTableBuilder<string, AnyDB> = db.schema.createTable(table);
  for (const c of t.columns) {
    builder = builder.addColumn(c.name, c.type as ColumnDataType, (col) => {
      let out = c.nullable ? col : col.notNull();
      if (c.primary) out = out.primaryKey();
      if (c.defaultValue !== undefined) out = out.defaultTo(c.defaultValue);
      return out;
    });
  }
  for (const c of t.columns) {
    if (!c.references) continue;
    const ref = c.references;
    // A table-level constraint: MySQL silently ignores REFERENCES written inside a column definition.
    builder = builder.addForeignKeyConstraint(
      `${table}_${c.name}_fkey`,
      [c.name],
      ref.table,
      [ref.column],
      (fk) => fk.onDelete(ref.onDelete),
    );
  }
  await builder.execute();
  await createColumnIndexes(db, table, t.columns);
}

/** The name `addIndex` gives an index without one: `posts_author_id_idx`. */
export function indexName(table: string, columns: string | readonly string[]): string {
  return `${table}_${[columns].flat().join("_")}_idx`;
}

/**
 * The indexes of declared columns, `<table>_<column>_idx` (as `addIndex` names them): unique
 * ones (on the scope's columns first, `<table>_<scope>_<column>_idx`, for a scoped one), and
 * plain ones for `index()` and foreign keys. A unique index rather than a UNIQUE constraint:
 * SQLite can add only an index to a table that exists (`addColumn`), so both ways of declaring a
 * column end the same.
 */
export async function createColumnIndexes(
  db: Kysely<AnyDB>,
  table: string,
  columns: readonly ColumnSpec[],
): Promise<void> {
  for (const c of columns) {
    if (c.primary || !(c.unique || c.index || c.references)) continue;
    const indexed = c.unique ? [...(c.uniqueScope ?? []), c.name] : [c.name];
    let index = db.schema.createIndex(indexName(table, indexed)).on(table).columns(indexed);
    if (c.unique) index = index.unique();
    await index.execute();
    // A scoped unique index starts with the scope: a foreign key's own index goes on too.
    if (c.references && indexed.length > 1) {
      await db.schema.createIndex(indexName(table, c.name)).on(table).column(c.name).execute();
    }
  }
}

/**
 * Drops a table; the reverse of `createTable` in a migration's `down`.
 *
 * @param db - the migration's database (Kysely)
 * @param table - the table to drop
 * @throws Error of the database when the table does not exist, or rows of another table point
 *   to it
 * @example
 * export async function down(db: Kysely<AnyDB>) { await dropTable(db, "widgets"); }
 */
export async function dropTable(db: Kysely<AnyDB>, table: string): Promise<void> {
  await db.schema.dropTable(table).execute();
}
