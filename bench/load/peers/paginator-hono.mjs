// Wisent's <Paginator> markup (packages/wisent/src/data/paginator.tsx) written with hono/jsx, so the
// peers that render with hono/jsx render the whole page with it (throughput.mjs checks the pages
// are the web app's, byte for byte).
import { jsx as h } from "hono/jsx";
import { pageSlots, pageUrlsOf } from "wisent/jsx";

const Item = ({ href, active, text, ariaLabel }) =>
  h(
    "li",
    { class: `page-item${active ? " active" : ""}${href ? "" : " disabled"}` },
    href
      ? h(
          "a",
          {
            class: "page-link",
            href,
            "aria-label": ariaLabel,
            "aria-current": active ? "page" : undefined,
          },
          text,
        )
      : h("span", { class: "page-link" }, text),
  );

/** The page links under a list (`url`: the request's URL, or its path and query). */
export function Paginator({ paginator, url }) {
  const { page, total_pages: total } = paginator;
  if (total <= 1) return null;
  // Links stay on the page's own origin, as Wisent's Paginator keeps them.
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  const urlOf = pageUrlsOf(path || "/");
  const href = (target) => (target < 1 || target > total ? undefined : urlOf(target));
  return h(
    "nav",
    { "aria-label": "Pagination" },
    h(
      "ul",
      { class: "pagination" },
      h(Item, { href: href(page - 1), text: "«", ariaLabel: "Previous page" }),
      pageSlots(page, total).map((slot) =>
        slot === "gap"
          ? h(Item, { text: "..." })
          : h(Item, { href: href(slot), active: slot === page, text: String(slot) }),
      ),
      h(Item, { href: href(page + 1), text: "»", ariaLabel: "Next page" }),
    ),
  );
}
