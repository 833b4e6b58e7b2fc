import {
  AliasNode,
  FromNode,
  IdentifierNode,
  type KyselyPlugin,
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
  const node = bare.toOperationNode();
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
  if (!whole) return undefined;
  try {
    // Run through the query's own executor: a select of the stat rows in place of the table's.
    const rows = (await bare
      .clearSelect()
      .clearWhere()
      .withPlugin(statOf(from.table.identifier.name))
      .execute()) as Record<string, unknown>[];
    return estimateFromSqliteStat(rows);
  } catch (error) {
    if (isMissingStat(error)) return undefined;
    throw error;
  }
}

/** Replaces a query by `select stat from sqlite_stat1 where tbl = <table>`. */
function statOf(table: string): KyselyPlugin {
  return {
    transformQuery({ node }) {
      if (!SelectQueryNode.is(node)) return node;
      const query = sql`(select stat from sqlite_stat1 where tbl = ${table})`.toOperationNode();
      const from: SelectQueryNode = {
        ...SelectQueryNode.create(),
        from: FromNode.create([AliasNode.create(query, IdentifierNode.create("stat1"))]),
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
