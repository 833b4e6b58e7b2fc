import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { isHttpError } from "../base/http-error.js";
import { paginationHeaders } from "../http/pagination-headers.js";
import { WHOLE_COUNT_FACTOR } from "./list-total.js";
import { encodeCursor } from "./page-cursor.js";
import { forgetLargeLists, type PageParams, type Paginated, paginate } from "./pagination.js";
import { configurePagination, type PaginationSettings } from "./pagination-settings.js";
import type { Queryable } from "./queryable.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";
import { Widget } from "./test-support/widget.js";
import { uuidv7 } from "./uuid.js";

const available = await availableDialects();

// Small limits so that small tables are "long": exact counts up to 5 rows, pages by number up
// to offset 9 on longer lists.
let saved: PaginationSettings;
beforeAll(() => {
  saved = configurePagination({ countLimit: 5, maxOffset: 9 });
});
afterAll(() => {
  configurePagination(saved);
});

type Row = { id: string; title: string };
type Lister = (params: PageParams) => Promise<Paginated<Row>>;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

/** Every page by number: the ids of each. */
async function offsetWalk(list: Lister, perPage: number): Promise<string[][]> {
  const pages: string[][] = [];
  for (let page = 1; ; page++) {
    const { rows } = await list({ page: String(page), per_page: String(perPage) });
    if (rows.length === 0) return pages;
    pages.push(rows.map((row) => row.id));
  }
}

/** Every page by cursor from the start, then back from the last by `prev` cursors. */
async function cursorWalks(list: Lister, perPage: number) {
  const forward: string[][] = [];
  let params: PageParams = { after: "", per_page: String(perPage) };
  let last: Paginated<Row>;
  for (;;) {
    last = await list(params);
    forward.push(last.rows.map((row) => row.id));
    const next = last.paginator.next_cursor;
    if (next === undefined) break;
    params = { after: next, per_page: String(perPage) };
  }
  const backward: string[][] = [last.rows.map((row) => row.id)];
  let page = last;
  while (page.paginator.prev_cursor !== undefined) {
    page = await list({ before: page.paginator.prev_cursor, per_page: String(perPage) });
    backward.unshift(page.rows.map((row) => row.id));
  }
  return { forward, backward };
}

async function analyze(db: Queryable, dialect: string): Promise<void> {
  if (dialect === "mysql") await sql`analyze table widgets`.execute(db);
  else await sql`analyze widgets`.execute(db);
}

/** SQLite without `sqlite_stat1` rows (earlier tests' ANALYZE gone). */
async function withoutStatistics(db: Queryable): Promise<void> {
  await analyze(db, "sqlite");
  await sql`delete from sqlite_stat1`.execute(db);
}

/** The paginator of page 1 of 11 rows by 3, past the count limit. */
const FIRST_OF_ELEVEN_ESTIMATED = {
  page: 1,
  per_page: 3,
  offset: 0,
  total_entries_size: 11,
  current_entries_size: 3,
  total_pages: 4,
  total_entries_estimated: true,
};

describe.each(DIALECTS)("long lists on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect]);
  const run = it.skipIf(!available[dialect]);
  let ids: string[];

  beforeEach(async () => {
    configurePagination({ countLimit: 5, maxOffset: 9 });
    forgetLargeLists();
    if (!available[dialect]) return;
    const db = t.db.kysely;
    await db.deleteFrom("widgets").execute();
    // 11 widgets, three of them created in the same millisecond (ties broken by id).
    const base = Date.UTC(2026, 0, 1);
    const times = [0, 1, 2, 2, 2, 3, 4, 5, 6, 7, 8];
    ids = [];
    for (const [i, offset] of times.entries()) {
      const id = uuidv7(base + i);
      ids.push(id);
      const at = new Date(base + offset * 1000);
      await db
        .insertInto("widgets")
        .values({ id, title: `w${i}`, description: null, created_at: at, updated_at: at })
        .execute();
    }
  });

  run("counts a list up to the limit exactly, as before", async () => {
    const db = t.db.kysely;
    await db.deleteFrom("widgets").where("id", "in", ids.slice(5)).execute();
    const { paginator } = await Widget.paginate(db, { per_page: "2" });
    expect(paginator).toEqual({
      page: 1,
      per_page: 2,
      offset: 0,
      total_entries_size: 5,
      current_entries_size: 2,
      total_pages: 3,
    });
  });

  run("asks only the estimate for a list lately counted past the limit, for a minute", async () => {
    configurePagination({ countLimit: 3, maxOffset: 9 });
    const db = t.db.kysely;
    await analyze(db, dialect);
    const first = await Widget.paginate(db, { per_page: "2" });
    expect(first.paginator.total_entries_estimated).toBe(true);
    // The table shrinks to 3 rows without new statistics: within the minute the capped count is
    // skipped while the estimate stays above twice the limit (PostgreSQL's, still 11; MySQL's
    // planner follows the delete at once, and SQLite counts a table this short whole, so both
    // count again at once), after the minute the list is counted again.
    await db.deleteFrom("widgets").where("id", "in", ids.slice(3)).execute();
    const skipped = await Widget.paginate(db, { per_page: "2" });
    expect(skipped.paginator.total_entries_estimated).toBe(
      dialect === "postgres" ? true : undefined,
    );
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + 61_000);
    try {
      const counted = await Widget.paginate(db, { per_page: "2" });
      expect(counted.paginator).toEqual({
        page: 1,
        per_page: 2,
        offset: 0,
        total_entries_size: 3,
        current_entries_size: 2,
        total_pages: 2,
      });
    } finally {
      clock.mockRestore();
    }
  });

  run("reports the database's estimate past the limit, marked as one", async () => {
    const db = t.db.kysely;
    await analyze(db, dialect);
    const { rows, paginator } = await Widget.paginate(db, { per_page: "3" });
    expect(rows.map((row) => row.id)).toEqual(ids.slice(0, 3));
    expect(paginator).toMatchObject({
      page: 1,
      per_page: 3,
      offset: 0,
      current_entries_size: 3,
      total_entries_estimated: true,
    });
    // Fresh statistics of a table this small are its count (never below what was counted).
    expect(paginator.total_entries_size).toBe(11);
    expect(paginator.total_pages).toBe(4);
    expect(paginator.next_cursor).toBe(encodeCursor([ids[2]]));
    const headers = paginationHeaders(paginator, "/widgets?per_page=3");
    expect(JSON.parse(headers["X-Pagination"]!)).toEqual(FIRST_OF_ELEVEN_ESTIMATED);
    expect(headers["X-Total-Count"]).toBe("11");
    // The same estimate for the whole table through the generic paginate.
    const generic = await paginate(Widget.query(db).orderBy("created_at"), { per_page: "3" });
    expect(generic.paginator).toMatchObject({
      total_entries_size: 11,
      total_entries_estimated: true,
    });
    expect(headers.Link).toBe(
      `</widgets?per_page=3&page=1>; rel="first", </widgets?per_page=3&after=${paginator.next_cursor}>; rel="next", </widgets?per_page=3&before=>; rel="last"`,
    );
  });

  run("estimates a filtered list by the planner, or has no total (SQLite)", async () => {
    const db = t.db.kysely;
    await analyze(db, dialect);
    const query = Widget.query(db).where("title", "<>", "none").orderBy("id");
    const { paginator } = await paginate(query, { per_page: "2" });
    expect(paginator.total_entries_estimated).toBe(true);
    if (dialect === "sqlite") {
      expect(paginator.total_entries_size).toBeNull();
      expect(paginator.total_pages).toBeNull();
      expect(paginationHeaders(paginator, "/w")["X-Total-Count"]).toBeUndefined();
    } else {
      // At least what the capped count saw, however the planner guesses the filter.
      expect(paginator.total_entries_size).toBeGreaterThanOrEqual(6);
    }
  });

  it.runIf(dialect === "sqlite")(
    "counts a whole SQLite table past the limit without statistics, where that is cheap",
    async () => {
      await withoutStatistics(t.db.kysely);
      const { paginator } = await Widget.paginate(t.db.kysely, { per_page: "3" });
      expect(paginator).toEqual({
        ...FIRST_OF_ELEVEN_ESTIMATED,
        next_cursor: encodeCursor([ids[2]]),
      });
      // The same through the generic paginate, in another order.
      const generic = await paginate(Widget.query(t.db.kysely).orderBy("created_at"), {
        per_page: "3",
      });
      expect(generic.paginator).toMatchObject({
        total_entries_size: 11,
        total_entries_estimated: true,
      });
    },
  );

  it.runIf(dialect === "sqlite")(
    "has no total on SQLite without statistics for a table whose rowids pass the cheap count",
    async () => {
      const db = t.db.kysely;
      // The largest rowid bounds the rows: past WHOLE_COUNT_FACTOR times the count's cap
      // (countLimit + 1), counting the table whole could cost more than the capped count.
      await sql`update widgets set rowid = rowid + ${WHOLE_COUNT_FACTOR * 6}`.execute(db);
      await withoutStatistics(db);
      const { paginator } = await Widget.paginate(db, { per_page: "3" });
      expect(paginator).toMatchObject({
        total_entries_size: null,
        total_pages: null,
        total_entries_estimated: true,
      });
      const generic = await paginate(Widget.query(db).orderBy("created_at"), { per_page: "3" });
      expect(generic.paginator.total_entries_size).toBeNull();
      // With statistics, their estimate.
      await analyze(db, dialect);
      const analyzed = await Widget.paginate(db, { per_page: "3" });
      expect(analyzed.paginator).toMatchObject({
        total_entries_size: 11,
        total_entries_estimated: true,
      });
    },
  );

  run("walks by cursor forward and back as pages by number do", async () => {
    const db = t.db.kysely;
    configurePagination({ maxOffset: 100 });
    const list: Lister = (params) => Widget.paginate(db, params);
    const numbered = await offsetWalk(
      (params) => paginate(Widget.query(db).orderBy("id"), params),
      3,
    );
    expect(numbered.flat()).toEqual(ids);
    const { forward, backward } = await cursorWalks(list, 3);
    expect(forward).toEqual(numbered);
    expect(backward).toEqual(numbered);
    // The end of the list, read backwards: its last rows.
    const end = await Widget.paginate(db, { before: "", per_page: "3" });
    expect(end.rows.map((row) => row.id)).toEqual(ids.slice(-3));
    expect(end.paginator).toMatchObject({ page: null, offset: null, cursor: "before" });
    expect(end.paginator.next_cursor).toBeUndefined();
  });

  run("walks a custom order by (column, id), ties included", async () => {
    const db = t.db.kysely;
    configurePagination({ maxOffset: 100 });
    const list: Lister = (params) =>
      paginate(Widget.query(db).orderBy("created_at", "desc"), params);
    const numbered = await offsetWalk(list, 2);
    expect(numbered.flat()).toEqual([
      ...ids.slice(5).reverse(),
      ids[2],
      ids[3],
      ids[4],
      ids[1],
      ids[0],
    ]);
    const { forward, backward } = await cursorWalks(list, 2);
    expect(forward).toEqual(numbered);
    expect(backward).toEqual(numbered);
  });

  run("answers 400 naming the cursor for a bad one", async () => {
    const db = t.db.kysely;
    for (const cursor of ["nope!", "bm90IGpzb24", encodeCursor([1, 2]), encodeCursor(["x"])]) {
      const error = await rejection(Widget.paginate(db, { after: cursor }));
      expect(isHttpError(error) && error.status).toBe(400);
      expect((error as Error).message).toContain('invalid cursor in "after"');
    }
    const custom = Widget.query(db).orderBy("created_at");
    const error = await rejection(paginate(custom, { before: encodeCursor(["x"]) }));
    expect(isHttpError(error) && error.status).toBe(400);
    expect((error as Error).message).toContain('invalid cursor in "before"');
    const both = await rejection(Widget.paginate(db, { after: "", before: "" }));
    expect((both as Error).message).toBe('use either "after" or "before", not both');
  });

  run("answers 400 naming `after` for a page past the offset limit of a long list", async () => {
    const db = t.db.kysely;
    const error = await rejection(Widget.paginate(db, { page: "5", per_page: "3" }));
    expect(isHttpError(error) && error.status).toBe(400);
    expect((error as Error).message).toContain('"after" cursor parameter');
    const generic = await rejection(
      paginate(Widget.query(db).orderBy("id"), { page: "11", per_page: "1" }),
    );
    expect(isHttpError(generic) && generic.status).toBe(400);
    // The deepest page by number is served.
    const deepest = await Widget.paginate(db, { page: "4", per_page: "2" });
    expect(deepest.rows.map((row) => row.id)).toEqual(ids.slice(6, 8));
    // A short list is served at any depth: the count is exact and cheap.
    await db.deleteFrom("widgets").where("id", "in", ids.slice(5)).execute();
    const beyond = await Widget.paginate(db, { page: "9", per_page: "3" });
    expect(beyond.rows).toEqual([]);
    expect(beyond.paginator).toMatchObject({ page: 9, total_entries_size: 5, total_pages: 2 });
  });
});
