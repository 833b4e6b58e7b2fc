import { CompiledQuery } from "kysely";
import type { DialectName } from "./database-url.js";
import { dialectOf } from "./dialect-of.js";
import { chain, type MaybePromise } from "./maybe-promise.js";
import type { Queryable } from "./queryable.js";
import { directSqlite } from "./sqlite-request-transaction.js";

/** The compiled statements of one table on one dialect. */
interface DialectStatements {
  find: string;
  page: string;
  count: string;
  destroy: string;
  /** Inserts and updates by their column list (`title,description,id,...`). */
  insert: Map<string, string>;
  update: Map<string, string>;
  /** find, page and count within a scope, by the scope's column list (`user_id`). */
  scoped: Map<string, { find: string; page: string; count: string }>;
}

/** Column values a read keeps to (an owned resource's `{ user_id: "..." }`). */
type Scope = Readonly<Record<string, string>>;

// Column lists come from the schema's output, so a table has a handful; the bound keeps a
// schema with many optional fields from growing without end.
const MAX_SHAPES = 64;

/**
 * The SQL a model runs on every request, compiled by Kysely once per dialect (and per column
 * list for writes) instead of built and compiled per query: only the parameters change.
 * Reads run on a SQLite connection the caller holds (or a free one) when they can, and then
 * return their rows at once rather than a promise.
 */
export class ModelStatements {
  readonly #byDialect = new Map<DialectName, DialectStatements>();

  constructor(private readonly table: string) {}

  /** Rows of `select * ... where id = ?`, within `scope` if given (may throw instead of rejecting). */
  find(db: Queryable, id: string, scope?: Scope): MaybePromise<unknown[]> {
    if (scope) return run(db, this.#scoped(db, scope).find, [id, ...Object.values(scope)], true);
    return run(db, this.#of(db).find, [id], true);
  }

  /** Rows of one page, oldest first, within `scope` if given (may throw instead of rejecting). */
  page(db: Queryable, limit: number, offset: number, scope?: Scope): MaybePromise<unknown[]> {
    if (scope) {
      return run(db, this.#scoped(db, scope).page, [...Object.values(scope), limit, offset]);
    }
    return run(db, this.#of(db).page, [limit, offset]);
  }

  /** The number of rows in the table, or in `scope` (may throw instead of rejecting). */
  count(db: Queryable, scope?: Scope): MaybePromise<number> {
    const [sql, parameters] = scope
      ? [this.#scoped(db, scope).count, Object.values(scope)]
      : [this.#of(db).count, []];
    return chain(run(db, sql, parameters), (rows) => {
      const [row] = rows as { count: unknown }[];
      return Number(row?.count ?? 0);
    });
  }

  /** Inserts one row (its keys in order; undefined values are left out, as Kysely does). */
  insert(db: Queryable, row: Record<string, unknown>): Promise<void> {
    const { keys, values } = defined(row);
    return write(db, this.#of(db).insert, keys, values, () =>
      db.insertInto(this.table).values(row).compile(),
    );
  }

  /** Sets the row's columns where `id` matches. */
  update(db: Queryable, id: string, changes: Record<string, unknown>): Promise<void> {
    const { keys, values } = defined(changes);
    values.push(id);
    return write(db, this.#of(db).update, keys, values, () =>
      db.updateTable(this.table).set(changes).where("id", "=", id).compile(),
    );
  }

  /** Deletes the row with this id. */
  async destroy(db: Queryable, id: string): Promise<void> {
    await run(db, this.#of(db).destroy, [id]);
  }

  /** The scoped reads for the scope's columns, compiled once (the values are parameters). */
  #scoped(db: Queryable, scope: Scope): { find: string; page: string; count: string } {
    const statements = this.#of(db);
    const columns = Object.keys(scope);
    const key = columns.join(",");
    const kept = statements.scoped.get(key);
    if (kept) return kept;
    let all = db.selectFrom(this.table).selectAll();
    let counted = db.selectFrom(this.table).select((eb) => eb.fn.countAll().as("count"));
    for (const column of columns) {
      all = all.where(column, "=", "");
      counted = counted.where(column, "=", "");
    }
    let found = db.selectFrom(this.table).selectAll().where("id", "=", "");
    for (const column of columns) found = found.where(column, "=", "");
    const compiled = {
      find: found.compile().sql,
      page: all.orderBy("id").limit(1).offset(0).compile().sql,
      count: counted.compile().sql,
    };
    if (statements.scoped.size < MAX_SHAPES) statements.scoped.set(key, compiled);
    return compiled;
  }

  #of(db: Queryable): DialectStatements {
    const dialect = dialectOf(db);
    let statements = this.#byDialect.get(dialect);
    if (!statements) {
      const all = db.selectFrom(this.table).selectAll();
      statements = {
        find: all.where("id", "=", "").compile().sql,
        page: all.orderBy("id").limit(1).offset(0).compile().sql,
        count: db
          .selectFrom(this.table)
          .select((eb) => eb.fn.countAll().as("count"))
          .compile().sql,
        destroy: db.deleteFrom(this.table).where("id", "=", "").compile().sql,
        insert: new Map(),
        update: new Map(),
        scoped: new Map(),
      };
      this.#byDialect.set(dialect, statements);
    }
    return statements;
  }
}

function defined(row: Record<string, unknown>): { keys: string; values: unknown[] } {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const key in row) {
    const value = row[key];
    if (value === undefined || !Object.hasOwn(row, key)) continue;
    names.push(key);
    values.push(value);
  }
  return { keys: names.join(","), values };
}

/**
 * Runs a write through the SQL kept for its column list, or compiles it; the compiled SQL is
 * kept when its parameters are exactly our values in order, so that a later row with the same
 * columns needs only its own values bound.
 */
async function write(
  db: Queryable,
  shapes: Map<string, string>,
  keys: string,
  values: unknown[],
  compile: () => CompiledQuery,
): Promise<void> {
  const kept = shapes.get(keys);
  if (kept) {
    await run(db, kept, values);
    return;
  }
  const compiled = compile();
  const parameters = compiled.parameters;
  const same =
    parameters.length === values.length && parameters.every((p, i) => Object.is(p, values[i]));
  if (same && shapes.size < MAX_SHAPES) shapes.set(keys, compiled.sql);
  await run(db, compiled.sql, parameters as unknown[]);
}

/**
 * Runs SQL with parameters: directly on a SQLite connection the caller may use now (the rows at
 * once), else through Kysely (a promise).
 */
function run(
  db: Queryable,
  sql: string,
  parameters: unknown[],
  one = false,
): MaybePromise<unknown[]> {
  const rows = directSqlite(db)?.rows<unknown>(sql, parameters, one);
  if (rows) return rows;
  return db.executeQuery(CompiledQuery.raw(sql, parameters)).then((result) => result.rows);
}
