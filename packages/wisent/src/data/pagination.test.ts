import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { isHttpError } from "../base/http-error.js";
import { cursorUrl, pageUrl, pageUrlsOf, paginationHeaders } from "../http/pagination-headers.js";
import { listRequest, pageRequest } from "./pagination.js";

describe("pageRequest", () => {
  it.each([
    [{}, 1, 20, 0],
    [{ page: "2" }, 2, 20, 20],
    [{ page: "2", per_page: "30" }, 2, 30, 30],
    [{ page: "1", per_page: "10" }, 1, 10, 0],
    [{ page: "abc", per_page: "xyz" }, 1, 20, 0],
    [{ page: "2.5", per_page: "1e3" }, 1, 20, 0],
    [{ page: "0" }, 1, 20, 0],
    [{ page: "-4" }, 1, 20, 0],
    [{ per_page: "0" }, 1, 20, 0],
    [{ per_page: "-5" }, 1, 20, 0],
    [{ per_page: "101" }, 1, 100, 0],
    [{ page: "3", per_page: "100000" }, 3, 100, 200],
    [{ page: " 4 " }, 4, 20, 60],
    [{ page: ["5", "6"] }, 5, 20, 80],
    [{ page: 7, per_page: 5 }, 7, 5, 30],
    [new URLSearchParams("page=2&per_page=3"), 2, 3, 3],
    [new URL("http://x/widgets?page=3"), 3, 20, 40],
  ])("%j -> page %i, per_page %i, offset %i", (params, page, perPage, offset) => {
    expect(pageRequest(params)).toEqual({ page, per_page: perPage, offset });
  });
});

const paginator = (page: number, total: number, perPage = 10) => ({
  page,
  per_page: perPage,
  offset: (page - 1) * perPage,
  total_entries_size: total,
  current_entries_size: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)),
  total_pages: Math.ceil(total / perPage),
});

describe("paginationHeaders", () => {
  it("sends Buffalo's X-Pagination, RFC 8288 links keeping other parameters, and the total", () => {
    const headers = paginationHeaders(paginator(2, 45), "/widgets?per_page=10&q=a%20b&page=2");
    expect(headers["X-Pagination"]).toBe(
      '{"page":2,"per_page":10,"offset":10,"total_entries_size":45,"current_entries_size":10,"total_pages":5}',
    );
    expect(headers["X-Total-Count"]).toBe("45");
    expect(headers.Link).toBe(
      [
        '</widgets?per_page=10&q=a+b&page=1>; rel="first"',
        '</widgets?per_page=10&q=a+b&page=1>; rel="prev"',
        '</widgets?per_page=10&q=a+b&page=3>; rel="next"',
        '</widgets?per_page=10&q=a+b&page=5>; rel="last"',
      ].join(", "),
    );
  });

  it("keeps absolute URLs absolute and omits prev on the first page, next on the last", () => {
    expect(paginationHeaders(paginator(1, 25), "http://shop.test/widgets").Link).toBe(
      '<http://shop.test/widgets?page=1>; rel="first", <http://shop.test/widgets?page=2>; rel="next", <http://shop.test/widgets?page=3>; rel="last"',
    );
    expect(paginationHeaders(paginator(3, 25), "/widgets?page=3").Link).toBe(
      '</widgets?page=1>; rel="first", </widgets?page=2>; rel="prev", </widgets?page=3>; rel="last"',
    );
  });

  it("handles an empty list and a page past the end", () => {
    expect(paginationHeaders(paginator(1, 0), "/widgets").Link).toBe(
      '</widgets?page=1>; rel="first", </widgets?page=1>; rel="last"',
    );
    expect(paginationHeaders(paginator(9, 25), "/widgets?page=9").Link).toBe(
      '</widgets?page=1>; rel="first", </widgets?page=3>; rel="prev", </widgets?page=3>; rel="last"',
    );
  });

  it("builds page URLs", () => {
    expect(pageUrl("/widgets/?per_page=5", 2)).toBe("/widgets/?per_page=5&page=2");
    expect(pageUrl(new URL("https://a.test/w?page=1#top"), 4)).toBe("https://a.test/w?page=4#top");
  });

  // A request-target is a path: one that starts like a network-path reference (`//host/...`)
  // must neither throw on a host the URL parser refuses nor become a link to another site.
  it.each([
    ["//1.2.3.256/widgets?per_page=2", "/1.2.3.256/widgets?per_page=2&page=2"],
    ["//[::1/widgets", "/[::1/widgets?page=2"],
    ['//a"b/widgets', "/a%22b/widgets?page=2"],
    ["//evil.example/widgets?x=1", "/evil.example/widgets?x=1&page=2"],
    ["/\\evil.example/widgets", "/evil.example/widgets?page=2"],
    ["widgets?per_page=1", "/widgets?per_page=1&page=2"],
  ])("keeps the hostile relative target %j a path on this site", (target, expected) => {
    expect(pageUrl(target, 2)).toBe(expected);
  });

  it("links a request with an invalid Host and a //-target by path, without throwing", async () => {
    const app = new Hono();
    app.get("*", (c) => c.json(paginationHeaders(paginator(1, 25), c)));
    const res = await app.fetch(
      new Request("http://127.0.0.1//1.2.3.256/widgets?per_page=10", {
        headers: { host: "1.2.3.256" },
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { Link: string }).Link).toBe(
      '</1.2.3.256/widgets?per_page=10&page=1>; rel="first", </1.2.3.256/widgets?per_page=10&page=2>; rel="next", </1.2.3.256/widgets?per_page=10&page=3>; rel="last"',
    );
  });
});

describe("listRequest", () => {
  it.each([
    [
      { after: "abc", per_page: "5" },
      { kind: "cursor", param: "after", cursor: "abc", per_page: 5 },
    ],
    [{ before: "" }, { kind: "cursor", param: "before", cursor: "", per_page: 20 }],
    [{ page: "2" }, { kind: "page", page: 2, per_page: 20, offset: 20 }],
  ])("%j -> %j", (params, expected) => {
    expect(listRequest(params)).toEqual(expected);
  });

  it.each([
    [{ after: "a", before: "b" }, 'use either "after" or "before", not both'],
    [{ page: "2", after: "a" }, 'use either "page" or "after", not both'],
  ])("refuses %j with a 400", (params, message) => {
    let error: unknown;
    try {
      listRequest(params);
    } catch (caught) {
      error = caught;
    }
    expect(isHttpError(error) && error.status).toBe(400);
    expect((error as Error).message).toContain(message);
  });
});

describe("paginationHeaders of long lists and cursor pages", () => {
  it("links a cursor page by cursor, with no total", () => {
    const headers = paginationHeaders(
      {
        page: null,
        per_page: 2,
        offset: null,
        total_entries_size: null,
        current_entries_size: 2,
        total_pages: null,
        cursor: "after",
        prev_cursor: "p1",
        next_cursor: "n2",
      },
      "http://shop.test/widgets.json?per_page=2&after=x",
    );
    expect(headers["X-Pagination"]).toBe(
      '{"page":null,"per_page":2,"offset":null,"total_entries_size":null,"current_entries_size":2,"total_pages":null}',
    );
    expect(headers["X-Total-Count"]).toBeUndefined();
    expect(headers.Link).toBe(
      [
        '<http://shop.test/widgets.json?per_page=2&after=>; rel="first"',
        '<http://shop.test/widgets.json?per_page=2&before=p1>; rel="prev"',
        '<http://shop.test/widgets.json?per_page=2&after=n2>; rel="next"',
        '<http://shop.test/widgets.json?per_page=2&before=>; rel="last"',
      ].join(", "),
    );
  });

  it("marks an estimated total, and leaves out X-Total-Count when there is none", () => {
    const headers = paginationHeaders(
      {
        page: 2,
        per_page: 10,
        offset: 10,
        total_entries_size: null,
        current_entries_size: 10,
        total_pages: null,
        total_entries_estimated: true,
        next_cursor: "n",
      },
      "/widgets?page=2&per_page=10",
    );
    expect(JSON.parse(headers["X-Pagination"] ?? "")).toMatchObject({
      total_entries_size: null,
      total_entries_estimated: true,
    });
    expect(headers["X-Total-Count"]).toBeUndefined();
    expect(headers.Link).toBe(
      '</widgets?page=1&per_page=10>; rel="first", </widgets?page=1&per_page=10>; rel="prev", </widgets?per_page=10&after=n>; rel="next", </widgets?per_page=10&before=>; rel="last"',
    );
  });

  it("keeps hostile relative targets on this site in cursor links too", () => {
    expect(cursorUrl("//evil.example/widgets?page=3&x=1", "after", "c")).toBe(
      "/evil.example/widgets?x=1&after=c",
    );
  });
});

describe("pageUrl against URL's own searchParams.set", () => {
  // What pageUrl promises, spelled out with the URL API (one parse per page).
  const reference = (url: string, page: number) => {
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
    const target = new URL(url, "http://wisent.invalid");
    target.searchParams.set("page", String(page));
    return absolute ? target.href : `${target.pathname}${target.search}`;
  };

  it.each([
    "/widgets",
    "/widgets?",
    "/widgets?page=3",
    "/widgets?per_page=10&page=2&q=a%20b",
    "/widgets?page=1&q=x&page=7&sort=title",
    "/widgets?q=a+b&q=%2B&empty=&flag",
    "/widgets?name=J%C3%BCrgen&emoji=%F0%9F%90%83&page=2",
    "/widgets/?per_page=5",
    "/a/../widgets/./x?page=2",
    "http://shop.test/widgets",
    "https://shop.test:8443/w?page=2&x=1#top",
    "http://shop.test/w?x=%26amp%3B&page=9",
    "http://shop.test/w#top",
    "/widgets#list",
    "/widgets?#list",
    "http://shop.test",
  ])("builds %s's links as searchParams.set would", (url) => {
    const urlOf = pageUrlsOf(url);
    for (const page of [1, 2, 10, 500]) {
      expect(pageUrl(url, page)).toBe(reference(url, page));
      // One parse, many pages (the paginator's links): the same URLs.
      expect(urlOf(page)).toBe(reference(url, page));
    }
  });

  it("parses a list URL once for its headers and its paginator alike", () => {
    // Both ask for the same URL's maker: the second gets the first's, with no parse of its own.
    const url = "https://shop.test/widgets?per_page=5&q=a";
    expect(pageUrlsOf(url)).toBe(pageUrlsOf(url));
    expect(pageUrlsOf(new URL(url))).not.toBe(pageUrlsOf(new URL(url)));
  });
});
