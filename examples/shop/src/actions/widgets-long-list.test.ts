/**
 * A list longer than the count limit, through the generated widgets actions: its total marked
 * as estimated in X-Pagination, links by cursor, keyset pages forward and back, and 400s
 * naming the cursor for a bad one and for a page too deep. The limits are made small here
 * (`configurePagination`), so that a few widgets are a "long" list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configurePagination, type PaginationSettings } from "wisent/db";
import { clients, freshApp, type ShopApp } from "../../test/support.js";

let app: ShopApp;
let saved: PaginationSettings;
const titles: string[] = [];

beforeAll(async () => {
  ({ app } = await freshApp());
  saved = configurePagination({ countLimit: 4, maxOffset: 6 });
  for (let i = 0; i < 9; i++) {
    const title = `Widget ${i}`;
    const res = await clients(app).json.post("/widgets", { json: { title } });
    expect(res.status).toBe(201);
    titles.push(title);
  }
});
afterAll(() => {
  configurePagination(saved);
});

/** The target of a Link header's rel, as a path. */
function link(header: string | null, rel: string): string | undefined {
  const match = new RegExp(`<([^>]*)>; rel="${rel}"`).exec(header ?? "");
  return match?.[1]?.replace(/^https?:\/\/[^/]+/, "");
}

describe("a long widgets list", () => {
  it("marks a total past the count limit as estimated, and links on by cursor", async () => {
    const { json } = clients(app);
    // Past the limit of 4, a whole SQLite table this short is counted whole all the same.
    const res = await json.get("/widgets.json?per_page=2");
    expect(JSON.parse(res.headers.get("x-pagination") ?? "null")).toEqual({
      page: 1,
      per_page: 2,
      offset: 0,
      total_entries_size: 9,
      current_entries_size: 2,
      total_pages: 5,
      total_entries_estimated: true,
    });
    expect(res.headers.get("x-total-count")).toBe("9");
    expect(link(res.headers.get("link"), "first")).toBe("/widgets.json?per_page=2&page=1");
    expect(link(res.headers.get("link"), "next")).toMatch(
      /^\/widgets\.json\?per_page=2&after=[\w-]+$/,
    );
    expect(link(res.headers.get("link"), "last")).toBe("/widgets.json?per_page=2&before=");
  });

  it("walks the rel=next Links to the end and the rel=prev Links back", async () => {
    const { json } = clients(app);
    const pages: string[][] = [];
    let target: string | undefined = "/widgets.json?per_page=2";
    let last: Response | undefined;
    while (target) {
      last = await json.get(target);
      expect(last.status).toBe(200);
      pages.push(((await last.json()) as { title: string }[]).map((w) => w.title));
      target = link(last.headers.get("link"), "next");
    }
    expect(pages.flat()).toEqual(titles);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 1]);
    const back: string[][] = [pages.at(-1) ?? []];
    target = link(last?.headers.get("link") ?? null, "prev");
    while (target) {
      const res = await json.get(target);
      back.unshift(((await res.json()) as { title: string }[]).map((w) => w.title));
      // A page read by cursor has no number, offset or total.
      expect(JSON.parse(res.headers.get("x-pagination") ?? "null")).toMatchObject({
        page: null,
        offset: null,
        total_entries_size: null,
      });
      target = link(res.headers.get("link"), "prev");
    }
    expect(back).toEqual(pages);
  });

  it("answers 400 naming the cursor for a bad one, and for a page past the offset limit", async () => {
    const { json } = clients(app);
    const bad = await json.get("/widgets.json?after=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('invalid cursor in "after"');
    const deep = await json.get("/widgets.json?page=4&per_page=3");
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: string }).error).toContain('"after" cursor parameter');
    const both = await json.get("/widgets.json?page=2&after=");
    expect(both.status).toBe(400);
  });

  it("shows 'about' the estimate in the HTML paginator and goes on by cursor", async () => {
    const { browser } = clients(app);
    const html = await (await browser.get("/widgets?per_page=2")).text();
    expect(html).toContain("about 9");
    // Pages up to the offset limit by number (offset 6: page 4), then the cursor to the end.
    expect(html).toContain('href="/widgets?per_page=2&amp;page=4"');
    expect(html).not.toContain('href="/widgets?per_page=2&amp;page=5"');
    expect(html).toContain('href="/widgets?per_page=2&amp;before=" aria-label="Last page"');
    const deepest = await (await browser.get("/widgets?per_page=2&page=4")).text();
    expect(deepest).toMatch(/href="\/widgets\?per_page=2&amp;after=[\w-]+" aria-label="Next page"/);
  });
});
