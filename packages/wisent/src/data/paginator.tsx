/** @jsxRuntime classic */
/** @jsx h */
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import type { Paginator as PaginatorData } from "./pagination.js";
import { pageUrlsOf } from "./pagination-headers.js";

/** A numbered page, or a gap shown as an ellipsis. */
export type PageSlot = number | "gap";

/**
 * The page numbers of the bar, as Buffalo's paginator lays them out: with the default wing of 5
 * the bar is 11 items long; near the start `1-9 … last`, near the end `1 … last-8..last`,
 * otherwise `1 … page-3..page+3 … last`.
 *
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

/**
 * Page links under a list, in Buffalo's (Bootstrap) markup: previous, numbered pages with
 * ellipses, next, the current page marked `active` and `aria-current="page"`, all inside a
 * `<nav aria-label="Pagination">`. Renders nothing when everything fits on one page.
 *
 * @example
 * <Paginator paginator={paginator} url={c.req.url} />
 */
export function Paginator(props: PaginatorProps) {
  const { page, total_pages: total } = props.paginator;
  if (total <= 1) return null;
  // Links stay on the page's own origin: a full request URL (`c.req.url`) becomes path + query.
  const path =
    typeof props.url === "string"
      ? props.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
      : `${props.url.pathname}${props.url.search}`;
  const urlOf = pageUrlsOf(path || "/");
  const href = (target: number) => (target < 1 || target > total ? undefined : urlOf(target));
  return (
    <nav aria-label={props.label ?? "Pagination"}>
      <ul class="pagination">
        {item(href(page - 1), "«", "Previous page")}
        {pageSlots(page, total, props.wing).map((slot) =>
          slot === "gap"
            ? item(undefined, "...")
            : item(href(slot), String(slot), undefined, slot === page),
        )}
        {item(href(page + 1), "»", "Next page")}
      </ul>
    </nav>
  );
}
