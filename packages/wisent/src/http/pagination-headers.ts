import type { Context } from "hono";
import { BoundedMemo } from "../base/bounded-memo.js";
import { absoluteRequestUrl } from "./app-url.js";
import type { CursorParam, Paginator } from "./pagination-shape.js";

const BASE = "http://wisent.invalid";

/**
 * The URL of another page: `page` set, every other query parameter kept. A relative URL stays
 * relative (path and query only).
 *
 * @example
 * pageUrl("/widgets?per_page=5", 2); // "/widgets?per_page=5&page=2"
 */
export function pageUrl(url: string | URL, page: number): string {
  return pageUrlsOf(url)(page);
}

/** `pageUrl` for several pages of one URL. */
function pageUrls(url: string | URL, pages: readonly number[]): string[] {
  return pages.map(pageUrlsOf(url));
}

/**
 * `pageUrl` for many pages of one URL, parsing it once (a URL parse costs microseconds, and
 * each `searchParams.set` and `href` re-serialises the whole URL): the query around `page` is
 * serialised once, as `searchParams.set("page", ...)` would place it (where the first `page`
 * was, other `page`s dropped, else at the end), and each page's number put in between. A
 * paginator's 13 links: one parse instead of 13 (bench/render).
 *
 * @param url - the list's URL or path, with its other query parameters
 * @returns a function from a page number to that page's URL (a path stays a path)
 * @example
 * const urlOf = pageUrlsOf("/widgets?per_page=5");
 * urlOf(2); // "/widgets?per_page=5&page=2"
 */
export function pageUrlsOf(url: string | URL): (page: number) => string {
  return typeof url === "string" ? pageUrlMakers.get(url, pageUrlMaker) : pageUrlMaker(url);
}

/**
 * The page-URL maker of each list URL seen lately: a list is asked for by the same few URLs, and
 * both its headers and its page's paginator need one (a URL parse, two URLSearchParams).
 */
const pageUrlMakers = new BoundedMemo<string, (page: number) => string>(500);

/** A URL parsed, a relative one as a path on this site. */
function parseTarget(url: string | URL): { absolute: boolean; target: URL } {
  const absolute = url instanceof URL || /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
  // A relative URL is a path, never an authority: a request-target of `//1.2.3.256/widgets` is
  // the path `/1.2.3.256/widgets` here, so a hostile one neither throws nor links off-site.
  const target = absolute ? new URL(url) : new URL(`${BASE}/${url.replace(/^[/\\]+/, "")}`);
  return { absolute, target };
}

function pageUrlMaker(url: string | URL): (page: number) => string {
  const { absolute, target } = parseTarget(url);
  let head = "";
  let tail = "";
  // Without a query (a list's first page, as linked), no URLSearchParams at all.
  if (target.search !== "") {
    const before = new URLSearchParams();
    const after = new URLSearchParams();
    let seenPage = false;
    for (const [key, value] of target.searchParams) {
      if (key === "page") seenPage = true;
      else (seenPage ? after : before).append(key, value);
    }
    head = before.toString();
    tail = after.toString();
  }
  const prefix = absolute
    ? target.href.slice(0, target.href.length - target.search.length - target.hash.length)
    : target.pathname;
  const start = `${prefix}?${head === "" ? "" : `${head}&`}page=`;
  const end = `${tail === "" ? "" : `&${tail}`}${absolute ? target.hash : ""}`;
  return (page) => `${start}${page}${end}`;
}

/**
 * The URL of a cursor page: `after` or `before` set to the cursor (empty: the list's start or
 * end), `page` dropped, every other query parameter kept.
 *
 * @example
 * cursorUrl("/widgets?per_page=5&page=3", "after", "WyIwMWEy...");
 * // "/widgets?per_page=5&after=WyIwMWEy..."
 */
export function cursorUrl(url: string | URL, param: CursorParam, cursor: string): string {
  const { absolute, target } = parseTarget(url);
  const query = new URLSearchParams();
  for (const [key, value] of target.searchParams) {
    if (key !== "page" && key !== "after" && key !== "before") query.append(key, value);
  }
  query.append(param, cursor);
  const prefix = absolute
    ? target.href.slice(0, target.href.length - target.search.length - target.hash.length)
    : target.pathname;
  return `${prefix}?${query}${absolute ? target.hash : ""}`;
}

/** The `X-Pagination` JSON: Buffalo's keys in Buffalo's order, then the estimate's mark. */
function paginationJson(paginator: Paginator): string {
  return JSON.stringify({
    page: paginator.page,
    per_page: paginator.per_page,
    offset: paginator.offset,
    total_entries_size: paginator.total_entries_size,
    current_entries_size: paginator.current_entries_size,
    total_pages: paginator.total_pages,
    ...(paginator.total_entries_estimated && { total_entries_estimated: true }),
  });
}

/**
 * The response headers of a paginated list, for every format: `X-Pagination` (Buffalo's JSON),
 * `Link` (RFC 8288 first/prev/next/last, keeping the other query parameters) and `X-Total-Count`.
 * Given the request's context, the links are absolute from `APP_URL` (else from the request's
 * Host, when valid, and the proxy's scheme) and keep the request's format extension
 * (`/widgets.json?per_page=2` links to `/widgets.json?per_page=2&page=2`).
 *
 * A list too long to count exactly (see `paginate`) marks its total `total_entries_estimated`
 * (`X-Total-Count` is the estimate, absent when there is none), links `next` by cursor
 * (`after=...`) and `last` as `before=` (the list's end); a page read by cursor has `null` page,
 * offset and totals and links `prev`/`next` by cursor, `first` as `after=`.
 *
 * @param paginator - the paginator `paginate` (or a model's `paginate`) answered
 * @param request - the request's context (links absolute), or the list's URL or path
 * @returns the headers by name, for `c.respond`'s `headers`
 * @throws WisentError `E_CONFIG_INVALID` when `APP_URL` is set and is not an http(s) URL
 * @example
 * const { rows, paginator } = await Widget.paginate(tx, c.req.query());
 * return c.respond(200, { json: rows, headers: paginationHeaders(paginator, c) });
 */
export function paginationHeaders(
  paginator: Paginator,
  request: Context | string | URL,
): Record<string, string> {
  const url =
    typeof request === "string" || request instanceof URL ? request : absoluteRequestUrl(request);
  const { page, total_pages: totalPages } = paginator;
  if (page === null || paginator.total_entries_estimated) {
    const links: string[] = [];
    const link = (target: string, rel: string) => links.push(`<${target}>; rel="${rel}"`);
    if (page === null) {
      link(cursorUrl(url, "after", ""), "first");
    } else {
      link(pageUrl(url, 1), "first");
      if (page > 1) link(pageUrl(url, page - 1), "prev");
    }
    if (paginator.prev_cursor !== undefined)
      link(cursorUrl(url, "before", paginator.prev_cursor), "prev");
    if (paginator.next_cursor !== undefined)
      link(cursorUrl(url, "after", paginator.next_cursor), "next");
    link(cursorUrl(url, "before", ""), "last");
    const headers: Record<string, string> = {
      "X-Pagination": paginationJson(paginator),
      Link: links.join(", "),
    };
    if (paginator.total_entries_size !== null) {
      headers["X-Total-Count"] = String(paginator.total_entries_size);
    }
    return headers;
  }
  const last = Math.max(1, totalPages ?? 0);
  const links: [string, number][] = [["first", 1]];
  if (page > 1) links.push(["prev", Math.min(page - 1, last)]);
  if (page < last) links.push(["next", page + 1]);
  links.push(["last", last]);
  return {
    "X-Pagination": paginationJson(paginator),
    Link: pageUrls(
      url,
      links.map(([, target]) => target),
    )
      .map((target, i) => `<${target}>; rel="${links[i]![0]}"`)
      .join(", "),
    "X-Total-Count": String(paginator.total_entries_size),
  };
}
