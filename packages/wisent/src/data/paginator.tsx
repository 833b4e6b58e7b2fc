/** @jsxRuntime classic */
/** @jsx h */
import { cursorUrl, pageUrlsOf } from "../http/pagination-headers.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import type { Paginator as PaginatorData } from "./pagination.js";
import { paginationSettings } from "./pagination-settings.js";

/** A numbered page, or a gap shown as an ellipsis. */
export type PageSlot = number | "gap";

/**
 * The page numbers of the bar, as Buffalo's paginator lays them out: with the default wing of 5
 * the bar is 11 items long; near the start `1-9 … last`, near the end `1 … last-8..last`,
 * otherwise `1 … page-3..page+3 … last`.
 *
 * @param page - the current page
 * @param totalPages - how many pages the list has
 * @param wing - pages shown each side of the current one (default 5)
 * @returns the bar's page numbers, with `"gap"` for each ellipsis
 * @example
 * pageSlots(23, 29); // [1, "gap", 20, 21, 22, 23, 24, 25, 26, "gap", 29]
 */
export function pageSlots(page: number, totalPages: number, wing = 5): PageSlot[] {
  const bar = wing * 2 + 1;
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (totalPages <= bar) return range(1, totalPages);
  const center = wing + 1;
  if (page <= center) return [...range(1, bar - 2), "gap", totalPages];
  if (page >= totalPages - center + 1)
    return [1, "gap", ...range(totalPages - bar + 3, totalPages)];
  return [1, "gap", ...range(page - (wing - 2), page + (wing - 2)), "gap", totalPages];
}

/** Props of the HTML paginator. */
export interface PaginatorProps {
  /** The paginator from `paginate`. */
  paginator: PaginatorData;
  /** The current request URL (`c.req.url`) or path; links keep its other query parameters. */
  url: string | URL;
  /** Pages shown each side of the current one (default 5, Buffalo's `wingLength`). */
  wing?: number;
  /** Accessible name of the navigation landmark (default "Pagination"). */
  label?: string;
  /** The text of an estimated total (default `about 2,000,000`). */
  about?: (total: number) => string;
}

/** One item of the bar (a plain function, not a component: no props object per item). */
function item(href: string | undefined, text: string, ariaLabel?: string, active?: boolean) {
  const classes = `page-item${active ? " active" : ""}${href ? "" : " disabled"}`;
  return (
    <li class={classes}>
      {href ? (
        <a
          class="page-link"
          href={href}
          aria-label={ariaLabel}
          aria-current={active ? "page" : undefined}
        >
          {text}
        </a>
      ) : (
        <span class="page-link">{text}</span>
      )}
    </li>
  );
}

/** "about 2,000,000": the default wording of an estimated total. */
function aboutTotal(total: number): string {
  return `about ${total.toLocaleString("en-US")}`;
}

/**
 * Page links under a list, in Buffalo's (Bootstrap) markup: previous, numbered pages with
 * ellipses, next, the current page marked `active` and `aria-current="page"`, all inside a
 * `<nav aria-label="Pagination">`. Renders nothing when everything fits on one page.
 *
 * A list too long to count (an estimated total) links the pages a number reaches cheaply (up to
 * the offset limit), shows "about 2,000,000", and goes on by cursor; a page read by cursor links
 * the previous and next pages by cursor.
 *
 * @param props - the `paginator`, the list's `url`, and the `wing`, `label` and `about` wording
 * @returns the navigation, or nothing when one page holds the whole list
 * @example
 * <Paginator paginator={paginator} url={c.req.url} />
 */
export function Paginator(props: PaginatorProps) {
  const { paginator } = props;
  const { page, total_pages: total } = paginator;
  // Links stay on the page's own origin: a full request URL (`c.req.url`) becomes path + query.
  const path =
    (typeof props.url === "string"
      ? props.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
      : `${props.url.pathname}${props.url.search}`) || "/";
  const prevCursor = paginator.prev_cursor;
  const nextCursor = paginator.next_cursor;
  const byCursor = (param: "after" | "before", cursor: string | undefined) =>
    cursor === undefined ? undefined : cursorUrl(path, param, cursor);
  const nav = (children: unknown[]) => (
    <nav aria-label={props.label ?? "Pagination"}>
      <ul class="pagination">{children}</ul>
    </nav>
  );
  if (page === null) {
    if (prevCursor === undefined && nextCursor === undefined) return null;
    return nav([
      item(cursorUrl(path, "after", ""), "1", "First page"),
      item(byCursor("before", prevCursor), "«", "Previous page"),
      item(byCursor("after", nextCursor), "»", "Next page"),
    ]);
  }
  const estimated = paginator.total_entries_estimated === true;
  // Pages a number reaches without reading past the offset limit.
  const reachable = estimated
    ? Math.min(
        total ?? Infinity,
        Math.floor(paginationSettings().maxOffset / paginator.per_page) + 1,
      )
    : (total ?? 0);
  if (reachable <= 1 && !estimated) return null;
  const urlOf = pageUrlsOf(path);
  const href = (target: number) => (target < 1 || target > reachable ? undefined : urlOf(target));
  const next = href(page + 1) ?? (estimated ? byCursor("after", nextCursor) : undefined);
  const size = paginator.total_entries_size;
  return nav([
    item(href(page - 1), "«", "Previous page"),
    ...pageSlots(page, reachable, props.wing).map((slot) =>
      slot === "gap"
        ? item(undefined, "...")
        : item(href(slot), String(slot), undefined, slot === page),
    ),
    estimated ? item(undefined, "...") : null,
    estimated && size !== null ? item(undefined, (props.about ?? aboutTotal)(size)) : null,
    item(next, "»", "Next page"),
    estimated ? item(cursorUrl(path, "before", ""), "Last", "Last page") : null,
  ]);
}
