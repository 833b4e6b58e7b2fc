import {
  AliasNode,
  FromNode,
  IdentifierNode,
  type KyselyPlugin,
  type RawBuilder,
  RawNode,
  SelectionNode,
  type SelectQueryBuilder,
  SelectQueryNode,
  sql,
  TableNode,
} from "kysely";
import { isWisentError } from "../base/wisent-error.js";
import type { DialectName } from "./database-url.js";
import { literalLimit } from "./literal-limit.js";

/**
 * Wraps the query it is given into `select count(*) as count from (<query>) as capped`: Kysely
 * runs a query only through its own builder's executor, and the generic `paginate` has no
 * database handle to start a new query from.
 */
const COUNT_AROUND: KyselyPlugin = {
  transformQuery({ node }) {
    if (!SelectQueryNode.is(node)) return node;
    const outer: SelectQueryNode = {
      ...SelectQueryNode.create(),
      from: FromNode.create([AliasNode.create(node, IdentifierNode.create("capped"))]),
    };
    return SelectQueryNode.cloneWithSelections(outer, [
      SelectionNode.create(
        AliasNode.create(RawNode.createWithSql("count(*)"), IdentifierNode.create("count")),
      ),
    ]);
  },
  async transformResult({ result }) {
    return result;
  },
};

/**
 * The rows a query matches, counted up to `cap` only: `select count(*) from (select 1 ... limit
 * cap)`, which reads at most `cap` rows however long the table.
 */
export async function cappedCount<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  cap: number,
): Promise<number> {
  const row = await query
    .clearSelect()
    .clearOrderBy()
    .clearOffset()
    .select(sql.lit(1).as("one"))
    .limit(literalLimit(cap))
    .withPlugin(COUNT_AROUND)
    .executeTakeFirst();
  // PostgreSQL returns COUNT as a string (bigint); MySQL and SQLite as a number.
  return Number((row as { count?: unknown } | undefined)?.count ?? 0);
}

/** The planner's row estimate from `EXPLAIN` rows (PostgreSQL's text plan, MySQL's table). */
export function estimateFromExplain(
  dialect: DialectName,
  rows: readonly Record<string, unknown>[],
): number | undefined {
  if (dialect === "postgres") {
    // The top node's line: `Seq Scan on widgets  (cost=0.00..35.50 rows=2550 width=49)`.
    const plan = Object.values(rows[0] ?? {})[0];
    const match = typeof plan === "string" ? /\brows=(\d+)/.exec(plan) : null;
    return match ? Number(match[1]) : undefined;
  }
  if (dialect === "mysql") {
    const [first] = rows;
    const estimated = Number(first?.rows);
    if (!Number.isFinite(estimated)) return undefined;
    const filtered = first?.filtered === undefined ? 100 : Number(first.filtered);
    return Math.round((estimated * (Number.isFinite(filtered) ? filtered : 100)) / 100);
  }
  return undefined;
}

/** SQLite's row count of a table from `sqlite_stat1` (written by `ANALYZE`), as SQL and reader. */
export const SQLITE_STAT_SQL = "select stat from sqlite_stat1 where tbl = ?";

/** The rows of a table by its `sqlite_stat1` rows: the first number of each index's stat. */
export function estimateFromSqliteStat(
  rows: readonly Record<string, unknown>[],
): number | undefined {
  let most: number | undefined;
  for (const row of rows) {
    const first = Number(String(row.stat ?? "").split(" ")[0]);
    if (Number.isFinite(first) && (most === undefined || first > most)) most = first;
  }
  return most;
}

/** True when SQL failed for the database's lack of `sqlite_stat1` (never analyzed). */
function isMissingStat(error: unknown): boolean {
  return /no such table: sqlite_stat1/.test(String((error as Error)?.message));
}

/**
 * A whole SQLite table is counted exactly when its rows are at most this many times the count's
 * cap: `count(*)` reads the smallest index's pages, not rows, and over 20 times the rows costs
 * about half what stepping through the cap's rows does (bench/data-scale/sqlite-count.mjs).
 */
export const WHOLE_COUNT_FACTOR = 20;

/**
 * SQLite: the count of a whole table when its largest rowid (a bound on its rows) is at most
 * `bound` (a literal: see literalLimit), else null, as `count`.
 */
export function sqliteWholeCountSql(table: string, bound: RawBuilder<number>): RawBuilder<unknown> {
  const from = sql.table(table);
  return sql`select case when coalesce((select max(rowid) from ${from}), 0) <= ${bound} then (select count(*) from ${from}) end as "count"`;
}

/** The table a query reads whole (no filter, join or grouping), else undefined. */
function wholeTable<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): string | undefined {
  const node = query.toOperationNode();
  const froms = node.from?.froms ?? [];
  const [from] = froms;
  const whole =
    froms.length === 1 &&
    from !== undefined &&
    TableNode.is(from) &&
    !node.where &&
    !node.joins?.length &&
    !node.groupBy &&
    !node.having &&
    !node.distinctOn &&
    !node.setOperations?.length;
  return whole ? from.table.identifier.name : undefined;
}

/**
 * SQLite: the exact count of a query that reads a whole table, where counting it costs no more
 * than a count capped at `cap` (see {@link WHOLE_COUNT_FACTOR}); else undefined.
 */
export async function sqliteWholeCount<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  cap: number,
): Promise<number | undefined> {
  const table = wholeTable(query);
  if (table === undefined) return undefined;
  try {
    const [row] = (await query
      .withPlugin(
        replacedBy(sqliteWholeCountSql(table, literalLimit(cap * WHOLE_COUNT_FACTOR)), "whole"),
      )
      .execute()) as { count?: unknown }[];
    return row?.count === null || row?.count === undefined ? undefined : Number(row.count);
  } catch {
    return undefined; // a view, or WITHOUT ROWID: no rowid
  }
}

/**
 * The database's own estimate of the rows a query matches, without reading them: PostgreSQL's
 * and MySQL/MariaDB's planner (`EXPLAIN`), SQLite's `sqlite_stat1` for a whole table (after
 * `ANALYZE`); undefined when the database has none (SQLite, a filtered list or no statistics).
 */
export async function estimatedCount<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: DialectName,
): Promise<number | undefined> {
  const bare = query.clearOrderBy().clearLimit().clearOffset();
  if (dialect !== "sqlite") {
    const rows = (await bare.explain()) as Record<string, unknown>[];
    return estimateFromExplain(dialect, rows);
  }
  const table = wholeTable(bare);
  if (table === undefined) return undefined;
  try {
    const stat = sql`select stat from sqlite_stat1 where tbl = ${table}`;
    return estimateFromSqliteStat(
      (await bare.withPlugin(replacedBy(stat, "stat1")).execute()) as Record<string, unknown>[],
    );
  } catch (error) {
    if (isMissingStat(error)) return undefined;
    throw error;
  }
}

/**
 * Replaces a select by `select * from (<replacement>)`, run through the query's own executor
 * (a builder does not expose its database to start another query from).
 */
function replacedBy(replacement: RawBuilder<unknown>, alias: string): KyselyPlugin {
  return {
    transformQuery({ node }) {
      if (!SelectQueryNode.is(node)) return node;
      const query = sql`(${replacement})`.toOperationNode();
      const from: SelectQueryNode = {
        ...SelectQueryNode.create(),
        from: FromNode.create([AliasNode.create(query, IdentifierNode.create(alias))]),
      };
      return SelectQueryNode.cloneWithSelections(from, [SelectionNode.createSelectAll()]);
    },
    async transformResult({ result }) {
      return result;
    },
  };
}

/** Whether a failure was the database refusing a value (a cursor's): SQLSTATE class 22. */
export function isDataException(error: unknown): boolean {
  // data/'s connections report it as E_INVALID_VALUE, the driver's error as the cause.
  if (isWisentError(error, "E_INVALID_VALUE")) return isDataException(error.cause);
  const code =
    (error as { code?: unknown; sqlState?: unknown } | null)?.sqlState ??
    (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code);
}
