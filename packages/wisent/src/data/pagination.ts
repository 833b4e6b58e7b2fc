import type { SelectQueryBuilder } from "kysely";

/** Page size when `per_page` is missing or not a positive whole number. */
export const DEFAULT_PER_PAGE = 20;
/** Largest `per_page` a client can ask for; larger values are capped to it. */
export const MAX_PER_PAGE = 100;

/** Buffalo's paginator, with its JSON names (sent as `X-Pagination`). */
export interface Paginator {
  page: number;
  per_page: number;
  offset: number;
  total_entries_size: number;
  current_entries_size: number;
  total_pages: number;
}

/** One page of rows and the paginator describing it. */
export interface Paginated<Row> {
  rows: Row[];
  paginator: Paginator;
}

/** Query parameters as Hono gives them (`c.req.query()`), a URLSearchParams, or a URL. */
export type PageParams = URLSearchParams | URL | Record<string, unknown>;

function param(params: PageParams, key: string): unknown {
  if (params instanceof URL) return params.searchParams.get(key);
  if (params instanceof URLSearchParams) return params.get(key);
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

function wholeNumber(value: unknown): number | undefined {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^\s*[+-]?\d{1,15}\s*$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Reads `page` and `per_page`: defaults 1 and 20, non-numbers fall back to them, page < 1 is 1,
 * per_page < 1 is 20, per_page above 100 is 100.
 *
 * @example
 * pageRequest({ page: "3", per_page: "500" }); // { page: 3, per_page: 100, offset: 200 }
 */
export function pageRequest(params: PageParams): {
  page: number;
  per_page: number;
  offset: number;
} {
  const page = Math.max(1, wholeNumber(param(params, "page")) ?? 1);
  let perPage = wholeNumber(param(params, "per_page")) ?? DEFAULT_PER_PAGE;
  if (perPage < 1) perPage = DEFAULT_PER_PAGE;
  perPage = Math.min(perPage, MAX_PER_PAGE);
  return { page, per_page: perPage, offset: (page - 1) * perPage };
}

/**
 * Runs a select query for one page (LIMIT/OFFSET from `page` and `per_page`) and counts the
 * whole result. The count query is skipped when the page itself shows the total (a short page).
 * A page past the end is an empty list, not an error. Order the query for stable pages.
 *
 * @example
 * const { rows, paginator } = await paginate(
 *   tx.selectFrom("widgets").selectAll().orderBy("id"), c.req.query());
 */
export async function paginate<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  params: PageParams,
): Promise<Paginated<Row>> {
  const { page, per_page, offset } = pageRequest(params);
  const rows = await query.limit(per_page).offset(offset).execute();
  let total = totalShownByPage(page, per_page, offset, rows.length);
  if (total === undefined) {
    const counted = await query
      .clearSelect()
      .clearOrderBy()
      .select((eb) => eb.fn.countAll().as("count"))
      .executeTakeFirst();
    // PostgreSQL returns COUNT as a string (bigint); MySQL and SQLite as a number.
    total = Number((counted as { count?: unknown } | undefined)?.count ?? 0);
  }
  return { rows, paginator: paginatorOf(page, per_page, offset, rows.length, total) };
}

/**
 * The total number of entries when one page already shows it (a short page, or an empty first
 * page), else `undefined`: the caller must count.
 */
export function totalShownByPage(
  page: number,
  perPage: number,
  offset: number,
  rowCount: number,
): number | undefined {
  if (rowCount > 0 && rowCount < perPage) return offset + rowCount;
  if (rowCount === 0 && page === 1) return 0;
  return undefined;
}

/** The paginator of a page with `rowCount` rows out of `total`. */
export function paginatorOf(
  page: number,
  perPage: number,
  offset: number,
  rowCount: number,
  total: number,
): Paginator {
  return {
    page,
    per_page: perPage,
    offset,
    total_entries_size: total,
    current_entries_size: rowCount,
    total_pages: Math.ceil(total / perPage),
  };
}
