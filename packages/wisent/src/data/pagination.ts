import type { SelectQueryBuilder } from "kysely";
import { HttpError } from "../base/http-error.js";
import type { Paginator } from "../http/pagination-shape.js";
import type { DialectName } from "./database-url.js";
import { keysetWhere, listOrder, type OrderKey, reversedOrder } from "./list-order.js";
import { cappedCount, estimatedCount, isDataException, sqliteWholeCount } from "./list-total.js";
import { literalLimit } from "./literal-limit.js";
import { chain, type MaybePromise } from "./maybe-promise.js";
import {
  badCursor,
  type CursorParam,
  type CursorValue,
  decodeCursor,
  encodeCursor,
} from "./page-cursor.js";
import { type PaginationSettings, paginationSettings } from "./pagination-settings.js";

export type { PaginationJson, Paginator } from "../http/pagination-shape.js";

/** Page size when `per_page` is missing or not a positive whole number. */
export const DEFAULT_PER_PAGE = 20;
/** Largest `per_page` a client can ask for; larger values are capped to it. */
export const MAX_PER_PAGE = 100;

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
 * @param params - the query parameters (`c.req.query()`, a URLSearchParams or a URL)
 * @returns the page, the rows per page and the offset; never throws
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

/** What a list was asked for: a numbered page, or the rows after/before a cursor. */
export type ListRequest =
  | { kind: "page"; page: number; per_page: number; offset: number }
  | { kind: "cursor"; param: CursorParam; cursor: string; per_page: number };

/**
 * Reads `page`/`per_page` as {@link pageRequest} does, or a cursor: `after=<cursor>` (the rows
 * after it) or `before=<cursor>`; an empty `after=` is the list's start, `before=` its end.
 * Both cursors, or a cursor with `page`, is a 400 naming them.
 *
 * @example
 * listRequest({ after: "WyIwMWEy..." }); // { kind: "cursor", param: "after", ... }
 */
export function listRequest(params: PageParams): ListRequest {
  const numbered = pageRequest(params);
  const after = param(params, "after");
  const before = param(params, "before");
  if (after === undefined && before === undefined) return { kind: "page", ...numbered };
  if (after !== undefined && before !== undefined) {
    throw new HttpError(400, 'use either "after" or "before", not both');
  }
  const name: CursorParam = after !== undefined ? "after" : "before";
  const cursor = after ?? before;
  if (typeof cursor !== "string") throw badCursor(name, "not a cursor");
  if (param(params, "page") !== undefined) {
    throw new HttpError(400, `use either "page" or "${name}", not both`);
  }
  return { kind: "cursor", param: name, cursor, per_page: numbered.per_page };
}

/** What {@link readList} needs of a list: its rows by offset or by cursor, and its size. */
export interface ListSource<Row> {
  /** How many columns a cursor of this list holds (its order's keys); 0: no cursors. */
  readonly keys: number;
  /** Rows of the list's order, `limit` from `offset`. */
  page(limit: number, offset: number): MaybePromise<Row[]>;
  /**
   * `limit` rows past the cursor values (from the start when undefined) in the walk's direction:
   * `before` reads the list backwards.
   */
  walk(param: CursorParam, values: CursorValue[] | undefined, limit: number): MaybePromise<Row[]>;
  /** The list's rows counted up to `cap`. */
  count(cap: number): MaybePromise<number>;
  /**
   * The list's exact count where counting all its rows costs no more than counting up to `cap`
   * (SQLite's whole table), else undefined; `readList` then takes it for the count and the
   * estimate both.
   */
  wholeCount?(cap: number): MaybePromise<number | undefined>;
  /** The database's estimate of the list's rows, if it has one. */
  estimate(): MaybePromise<number | undefined>;
  /**
   * Names the list (its table and scope) so that one seen past the count limit asks the estimate
   * first for a while (see `readList`); none: always counted first.
   */
  readonly sizeKey?: string;
  /** The cursor of a row. */
  cursorOf(row: Row): string;
}

/** The 400 of a `page` too deep to read by offset. */
function tooDeep(page: number, maxOffset: number): HttpError {
  return new HttpError(
    400,
    `page ${page} is past the deepest page served by number (offset ${maxOffset}) on a list this long: use the "after" cursor parameter (follow the rel="next" Link) instead`,
  );
}

/**
 * One page of a list with its paginator, from `page`/`per_page` or an `after`/`before` cursor
 * (see {@link paginate}). Ready at once when the source's reads are (SQLite).
 */
export function readList<Row>(
  source: ListSource<Row>,
  request: ListRequest,
  settings: PaginationSettings = paginationSettings(),
): MaybePromise<Paginated<Row>> {
  if (request.kind === "cursor") return readCursorPage(source, request);
  const { page, per_page: perPage, offset } = request;
  const { countLimit } = settings;
  const size = new ListSize(source, countLimit + 1);
  if (offset > settings.maxOffset) {
    // Only a list short enough to count may be read this deep; its count is exact then.
    return chain(size.count(), (counted) => {
      if (counted > countLimit) throw tooDeep(page, settings.maxOffset);
      return chain(source.page(perPage, offset), (rows) => ({
        rows,
        paginator: paginatorOf(page, perPage, offset, rows.length, counted),
      }));
    });
  }
  return chain(source.page(perPage, offset), (rows) => {
    const shown = totalShownByPage(page, perPage, offset, rows.length);
    if (shown !== undefined) {
      return { rows, paginator: paginatorOf(page, perPage, offset, rows.length, shown) };
    }
    const estimated = (counted: number, estimate: number | undefined): Paginated<Row> => {
      // Never less than what was seen: statistics lag behind inserts.
      const total =
        estimate === undefined ? null : Math.max(estimate, counted, offset + rows.length);
      const paginator: Paginator = {
        ...paginatorOf(page, perPage, offset, rows.length, total ?? 0),
        total_entries_size: total,
        total_pages: total === null ? null : Math.ceil(total / perPage),
        total_entries_estimated: true,
      };
      const last = rows.at(-1);
      if (rows.length === perPage && last !== undefined && source.keys > 0) {
        paginator.next_cursor = source.cursorOf(last);
      }
      return { rows, paginator };
    };
    const sizeKey = source.sizeKey;
    const countFirst = (): MaybePromise<Paginated<Row>> =>
      chain(size.count(), (counted) => {
        if (counted <= countLimit) {
          if (sizeKey !== undefined) largeLists.delete(sizeKey);
          return { rows, paginator: paginatorOf(page, perPage, offset, rows.length, counted) };
        }
        if (sizeKey !== undefined) rememberLarge(sizeKey);
        return chain(size.estimate(), (estimate) => estimated(counted, estimate));
      });
    if (!isKnownLarge(sizeKey)) return countFirst();
    // A list seen past the count limit lately skips the capped count while the database's
    // estimate stays well above it (saves counting countLimit rows a request: bench/data-scale).
    return chain(size.estimate(), (estimate) =>
      estimate !== undefined && estimate > LARGE_ESTIMATE_FACTOR * countLimit
        ? estimated(countLimit + 1, estimate)
        : countFirst(),
    );
  });
}

/**
 * A list's size as one request asks it: the count up to `cap` and the estimate, each from the
 * source's whole count when it has one, and each asked of the database at most once (a list seen
 * past the limit asks the estimate before counting, and again after).
 */
class ListSize<Row> {
  #whole: MaybePromise<number | undefined> | undefined;
  #wholeAsked = false;
  #estimate: MaybePromise<number | undefined> | undefined;
  #estimateAsked = false;

  constructor(
    private readonly source: ListSource<Row>,
    private readonly cap: number,
  ) {}

  count(): MaybePromise<number> {
    return chain(this.#wholeCount(), (whole) =>
      whole === undefined ? this.source.count(this.cap) : Math.min(whole, this.cap),
    );
  }

  estimate(): MaybePromise<number | undefined> {
    if (!this.#estimateAsked) {
      this.#estimateAsked = true;
      this.#estimate = chain(this.#wholeCount(), (whole) => whole ?? this.source.estimate());
    }
    return this.#estimate;
  }

  #wholeCount(): MaybePromise<number | undefined> {
    if (!this.#wholeAsked) {
      this.#wholeAsked = true;
      this.#whole = this.source.wholeCount?.(this.cap);
    }
    return this.#whole;
  }
}

/**
 * Lists last counted past the count limit, by `ListSource.sizeKey`, with when that stops
 * counting for them: their totals come from the estimate alone until then, after which one
 * request counts again (a list that shrank gets its exact count back).
 */
const largeLists = new Map<string, number>();
const LARGE_LIST_MEMORY_MS = 60_000;
const LARGE_LISTS_KEPT = 1_000;
/** How far above the count limit an estimate must be to be trusted without counting. */
const LARGE_ESTIMATE_FACTOR = 2;

function isKnownLarge(key: string | undefined): boolean {
  if (key === undefined) return false;
  const until = largeLists.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  largeLists.delete(key);
  return false;
}

function rememberLarge(key: string): void {
  if (largeLists.size >= LARGE_LISTS_KEPT && !largeLists.has(key)) largeLists.clear();
  largeLists.set(key, Date.now() + LARGE_LIST_MEMORY_MS);
}

/** Forgets which lists were seen past the count limit (for tests that change a table's size). */
export function forgetLargeLists(): void {
  largeLists.clear();
}

function readCursorPage<Row>(
  source: ListSource<Row>,
  request: Extract<ListRequest, { kind: "cursor" }>,
): MaybePromise<Paginated<Row>> {
  const { param, per_page: perPage } = request;
  if (source.keys === 0) {
    throw new HttpError(400, `"${param}" is not available on this list: use "page"`);
  }
  const values = decodeCursor(request.cursor, param, source.keys);
  let read: MaybePromise<Row[]>;
  try {
    read = source.walk(param, values, perPage + 1);
  } catch (error) {
    throw isDataException(error) ? badCursor(param, "not a cursor of this list") : error;
  }
  const checked =
    read instanceof Promise
      ? read.catch((error: unknown) => {
          throw isDataException(error) ? badCursor(param, "not a cursor of this list") : error;
        })
      : read;
  return chain(checked, (found) => {
    const more = found.length > perPage;
    const rows = more ? found.slice(0, perPage) : found;
    if (param === "before") rows.reverse();
    // Walking forward, rows before the cursor exist when it is one; backwards, the reverse.
    const hasNext = param === "after" ? more : values !== undefined;
    const hasPrev = param === "after" ? values !== undefined : more;
    const paginator: Paginator = {
      page: null,
      per_page: perPage,
      offset: null,
      total_entries_size: null,
      current_entries_size: rows.length,
      total_pages: null,
      cursor: param,
    };
    const first = rows[0];
    const last = rows.at(-1);
    if (hasNext && last !== undefined) paginator.next_cursor = source.cursorOf(last);
    if (hasPrev && first !== undefined) paginator.prev_cursor = source.cursorOf(first);
    return { rows, paginator };
  });
}

/** The cursor of a row by the list's order keys. */
export function cursorByKeys(row: unknown, keys: readonly OrderKey[]): string {
  const record = row as Record<string, unknown>;
  return encodeCursor(keys.map((key) => record[key.column]));
}

/**
 * One page of a select query with its paginator, from `page` and `per_page` (LIMIT/OFFSET) or
 * from a cursor, `after=` or `before=` (keyset: the rows past the cursor's, in the query's
 * order). The query's `orderBy` columns make the order, with `id` appended as the unique last key
 * when they do not end with it (`orderBy("created_at")` walks by created_at, then id); a query
 * with no order is ordered by `id`. Order columns must be NOT NULL.
 *
 * Counting stays cheap on long lists: a list up to the count limit (10,000 rows by default,
 * {@link configurePagination}) is counted exactly, and the count is skipped when the page shows
 * the total (a short page); a longer list reports the database's estimate, marked
 * `total_entries_estimated`, and a `page` deeper than the offset limit answers 400 naming the
 * `after` cursor. A page past the end is an empty list, not an error.
 *
 * @param query - a Kysely select, with its `orderBy` (NOT NULL columns)
 * @param params - the query parameters (`c.req.query()`): `page`, `per_page`, `after`, `before`
 * @returns the page's rows and its paginator
 * @throws HttpError 400 (`E_HTTP`) for both `after` and `before`, a cursor with `page`, a cursor
 *   not of this list, or a `page` deeper than the offset limit on a list too long to count
 * @throws WisentError `E_CONFIG_INVALID` when a `PAGINATION_*` variable is malformed
 * @example
 * const { rows, paginator } = await paginate(
 *   tx.selectFrom("widgets").selectAll().orderBy("created_at", "desc"), c.req.query());
 */
export async function paginate<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  params: PageParams,
): Promise<Paginated<Row>> {
  const request = listRequest(params);
  const ordered = listOrder(query);
  const list = ordered?.query ?? query;
  const keys = ordered?.keys ?? [];
  // Compiled only for a list long enough to need its size, and then once.
  let compiledFor: DialectName | undefined;
  const dialect = () => (compiledFor ??= dialectOfQuery(list));
  const source: ListSource<Row> = {
    keys: keys.length,
    page: (limit, offset) => list.limit(literalLimit(limit)).offset(offset).execute(),
    walk(param, values, limit) {
      const walked = param === "before" ? reversedOrder(list, keys) : list;
      const from =
        values === undefined ? walked : walked.where(keysetWhere<DB, TB>(keys, values, param));
      return from.limit(literalLimit(limit)).execute();
    },
    count: (cap) => cappedCount(list, cap),
    wholeCount: (cap) => (dialect() === "sqlite" ? sqliteWholeCount(list, cap) : undefined),
    estimate: () => estimatedCount(list, dialect()),
    cursorOf: (row) => cursorByKeys(row, keys),
  };
  return readList(source, request);
}

/**
 * The database a query will run on, by how its SQL compiles (a builder does not expose its
 * database): MySQL quotes with backticks, PostgreSQL numbers its parameters.
 */
function dialectOfQuery<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
): DialectName {
  const compiled = query.limit(1).compile().sql;
  if (compiled.includes("`")) return "mysql";
  return /\$\d/.test(compiled) ? "postgres" : "sqlite";
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
