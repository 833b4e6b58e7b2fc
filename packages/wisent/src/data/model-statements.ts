import { CompiledQuery, sql } from "kysely";
import type { DialectName } from "./database-url.js";
import { dialectOf } from "./dialect-of.js";
import {
  estimateFromExplain,
  estimateFromSqliteStat,
  SQLITE_STAT_SQL,
  sqliteWholeCountSql,
  WHOLE_COUNT_FACTOR,
} from "./list-total.js";
import { SqlPerLimit } from "./literal-limit.js";
import { chain, type MaybePromise } from "./maybe-promise.js";
import type { CursorParam } from "./page-cursor.js";
import type { Queryable } from "./queryable.js";
import { directSqlite } from "./sqlite-request-transaction.js";

/** The reads of one table within one scope's columns (none: the whole table), compiled once. */
interface Reads {
  find: string;
  /** Offset pages; their LIMIT is written into the SQL (see literalLimit), their offset bound. */
  page: SqlPerLimit;
  /** Keyset pages: after an id, before one, and the list's end. */
  after: SqlPerLimit;
  before: SqlPerLimit;
  end: SqlPerLimit;
  /** The rows counted up to a cap, and the database's estimate of them. */
  cappedCount: SqlPerLimit;
  /**
   * SQLite, the whole table: its count when its largest rowid is at most the bound, else null
   * (see ModelStatements.wholeCount).
   */
  wholeCount: SqlPerLimit | undefined;
  estimate: string;
}

/** The compiled statements of one table on one dialect. */
interface DialectStatements {
  /** The whole table's reads. */
  reads: Reads;
  /** The reads within a scope, by the scope's column list (`user_id`). */
  scoped: Map<string, Reads>;
  destroy: string;
  /** Inserts and updates by their column list (`title,description,id,...`). */
  insert: Map<string, string>;
  update: Map<string, string>;
}

/**
 * Column values the reads keep to, `{ user_id: "0190…" }` (an owned resource's owner): their
 * values go first among a read's parameters.
 */
export type Scope = Readonly<Record<string, string>>;

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

  constructor(readonly table: string) {}

  /** Rows of `select * ... where id = ?`, within `scope` if given (may throw instead of rejecting). */
  find(db: Queryable, id: string, scope?: Scope): MaybePromise<unknown[]> {
    return run(db, this.#reads(db, scope).find, withScope(scope, [id]), true);
  }

  /** Rows of one page, oldest first, within `scope` if given (may throw instead of rejecting). */
  page(db: Queryable, limit: number, offset: number, scope?: Scope): MaybePromise<unknown[]> {
    return run(db, this.#reads(db, scope).page.sql(limit), withScope(scope, [offset]));
  }

  /**
   * Rows of a keyset page, by id: `limit` rows after `id` (from the start when undefined), or
   * before it (from the end), newest first; within `scope` if given (may throw instead of
   * rejecting).
   */
  walk(
    db: Queryable,
    param: CursorParam,
    id: string | undefined,
    limit: number,
    scope?: Scope,
  ): MaybePromise<unknown[]> {
    const reads = this.#reads(db, scope);
    if (id === undefined) {
      return param === "after"
        ? run(db, reads.page.sql(limit), withScope(scope, [0]))
        : run(db, reads.end.sql(limit), withScope(scope, []));
    }
    const sql = param === "after" ? reads.after : reads.before;
    return run(db, sql.sql(limit), withScope(scope, [id]));
  }

  /**
   * The number of rows in the table, or in `scope`, counted up to `cap` (may throw instead of
   * rejecting).
   */
  cappedCount(db: Queryable, cap: number, scope?: Scope): MaybePromise<number> {
    const reads = this.#reads(db, scope);
    return chain(run(db, reads.cappedCount.sql(cap), withScope(scope, [])), countOf);
  }

  /**
   * SQLite, the whole table: its exact count when counting it costs no more than a count capped
   * at `cap`, else undefined (a scope, another database, a table too long, no rowid).
   */
  wholeCount(db: Queryable, cap: number): number | undefined {
    const { wholeCount: sql } = this.#reads(db, undefined);
    // SQLite counts a whole table from its smallest index's pages, where the capped count steps
    // through every row up to the cap: its largest rowid bounds the rows, so the count is only
    // run when it cannot cost more (bench/data-scale/sqlite-count.mjs).
    const direct = directSqlite(db);
    if (!sql || !direct) return undefined;
    let rows: { count: unknown }[] | undefined;
    try {
      rows = direct.rows<{ count: unknown }>(sql.sql(cap * WHOLE_COUNT_FACTOR), [], true);
    } catch {
      return undefined; // a view, or WITHOUT ROWID: no rowid
    }
    // No rows: the connection was busy (the capped count then waits its turn).
    const count = rows?.[0]?.count;
    return count === null || count === undefined ? undefined : Number(count);
  }

  /**
   * The database's estimate of the rows, in `scope` if given: the planner's (PostgreSQL, MySQL),
   * or `sqlite_stat1`'s after an `ANALYZE` for the whole table; undefined when there is none
   * (SQLite keeps no estimate for a scope).
   */
  estimate(db: Queryable, scope?: Scope): MaybePromise<number | undefined> {
    const dialect = dialectOf(db);
    const { estimate } = this.#reads(db, scope);
    if (dialect !== "sqlite") {
      return chain(run(db, estimate, withScope(scope, [])), (rows) =>
        estimateFromExplain(dialect, rows as Record<string, unknown>[]),
      );
    }
    if (scope !== undefined) return undefined;
    let rows: MaybePromise<unknown[]>;
    try {
      rows = run(db, estimate, [this.table]);
    } catch {
      return undefined; // never analyzed: no sqlite_stat1
    }
    const read = (found: unknown[]) => estimateFromSqliteStat(found as Record<string, unknown>[]);
    return rows instanceof Promise ? rows.then(read, () => undefined) : read(rows);
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

  /** The reads within `scope`'s columns (the whole table's without one), compiled once. */
  #reads(db: Queryable, scope: Scope | undefined): Reads {
    const statements = this.#of(db);
    if (scope === undefined) return statements.reads;
    const columns = Object.keys(scope);
    const key = columns.join(",");
    let reads = statements.scoped.get(key);
    if (!reads) {
      reads = compileReads(db, this.table, columns);
      if (statements.scoped.size < MAX_SHAPES) statements.scoped.set(key, reads);
    }
    return reads;
  }

  #of(db: Queryable): DialectStatements {
    const dialect = dialectOf(db);
    let statements = this.#byDialect.get(dialect);
    if (!statements) {
      statements = {
        reads: compileReads(db, this.table, []),
        scoped: new Map(),
        destroy: db.deleteFrom(this.table).where("id", "=", "").compile().sql,
        insert: new Map(),
        update: new Map(),
      };
      this.#byDialect.set(dialect, statements);
    }
    return statements;
  }
}

/** A read's parameters: the scope's values first, as its `where`s come first in the SQL. */
function withScope(scope: Scope | undefined, parameters: unknown[]): unknown[] {
  return scope === undefined ? parameters : [...Object.values(scope), ...parameters];
}

/** The count a count query answered. */
function countOf(rows: unknown[]): number {
  const [row] = rows as { count: unknown }[];
  // PostgreSQL returns COUNT as a string (bigint); MySQL and SQLite as a number.
  return Number(row?.count ?? 0);
}

/** The reads of `table`, each kept to `columns` (equal to a parameter each) before anything else. */
function compileReads(db: Queryable, table: string, columns: string[]): Reads {
  let all = db.selectFrom(table).selectAll();
  let one = db.selectFrom(table).select(sql.lit(1).as("one"));
  for (const column of columns) {
    all = all.where(column, "=", "");
    one = one.where(column, "=", "");
  }
  return {
    find: all.where("id", "=", "").compile().sql,
    page: new SqlPerLimit((limit) => all.orderBy("id").limit(limit).offset(0).compile().sql),
    after: new SqlPerLimit(
      (limit) => all.where("id", ">", "").orderBy("id").limit(limit).compile().sql,
    ),
    before: new SqlPerLimit(
      (limit) => all.where("id", "<", "").orderBy("id", "desc").limit(limit).compile().sql,
    ),
    end: new SqlPerLimit((limit) => all.orderBy("id", "desc").limit(limit).compile().sql),
    cappedCount: new SqlPerLimit(
      (limit) =>
        db
          .selectFrom(one.limit(limit).as("capped"))
          .select((eb) => eb.fn.countAll().as("count"))
          .compile().sql,
    ),
    wholeCount:
      dialectOf(db) === "sqlite" && columns.length === 0
        ? new SqlPerLimit((bound) => sqliteWholeCountSql(table, bound).compile(db).sql)
        : undefined,
    estimate: dialectOf(db) === "sqlite" ? SQLITE_STAT_SQL : `explain ${all.compile().sql}`,
  };
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
