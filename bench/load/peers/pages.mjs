// The peers' HTML pages: the same documents examples/shop renders for its widgets (its generated
// layout, index and show templates, with the English messages), written with hono/jsx (the
// renderer Wisent used before wisent/jsx) and without Wisent's runtime, so every variant sends
// the same page. The CSRF meta tag carries a fresh random token per request, as the shop masks
// its session's token per request. throughput.mjs's preflight checks that each peer's page
// equals the web app's but for that token.
import { randomBytes } from "node:crypto";
import { raw } from "hono/html";
import { jsx as h } from "hono/jsx";
import { Paginator } from "./paginator-hono.mjs";

const widgetPath = (widget) => `/widgets/${widget.id}`;

const destroyLink = (widget) =>
  h(
    "a",
    { href: widgetPath(widget), "data-method": "DELETE", "data-confirm": "Are you sure?" },
    "Destroy",
  );

/** The shop's layout: head with the CSRF meta tags, skip link, header, main, footer. */
const Layout = ({ children }) => [
  raw("<!DOCTYPE html>"),
  h(
    "html",
    { lang: "en-US" },
    h(
      "head",
      null,
      h("meta", { charset: "utf-8" }),
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h("title", null, "Shop"),
      h("meta", { name: "csrf-param", content: "authenticity_token" }),
      h("meta", { name: "csrf-token", content: randomBytes(64).toString("base64url") }),
      h("link", { rel: "stylesheet", href: "/assets/application.css" }),
      h("script", { src: "/assets/application.js", defer: true }),
    ),
    h(
      "body",
      null,
      h("a", { class: "skip-link", href: "#main" }, "Skip to content"),
      h(
        "header",
        { class: "site-header" },
        h(
          "nav",
          { class: "container", "aria-label": "Main" },
          h("a", { class: "brand", href: "/" }, "Shop"),
          h("a", { href: "/widgets" }, "Widgets"),
        ),
      ),
      h("main", { id: "main", class: "container" }, children),
      h("footer", { class: "site-footer" }, h("p", { class: "container" }, "Made with Wisent.")),
    ),
  ),
];

/** The shop's widget list: header with the New link, the table, the paginator. */
const Index = ({ widgets, paginator, url }) => [
  h(
    "div",
    { class: "page-header" },
    h("h1", null, "Widgets"),
    h("a", { class: "btn", href: "/widgets/new" }, "Create New Widget"),
  ),
  h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      null,
      h(
        "thead",
        null,
        h("tr", null, h("th", null, "Title"), h("th", { class: "actions" }, "Actions")),
      ),
      h(
        "tbody",
        null,
        widgets.map((widget) =>
          h(
            "tr",
            null,
            h("td", null, widget.title),
            h(
              "td",
              { class: "actions" },
              h("a", { href: widgetPath(widget) }, "View"),
              h("a", { href: `${widgetPath(widget)}/edit` }, "Edit"),
              destroyLink(widget),
            ),
          ),
        ),
      ),
    ),
  ),
  h(Paginator, { paginator, url }),
];

/** The shop's widget page: heading, Back/Edit/Destroy links, the fields. */
const Show = ({ widget }) => [
  h("h1", null, "Widget Details"),
  h(
    "div",
    { class: "actions-bar" },
    h("a", { href: "/widgets" }, "Back to all Widgets"),
    h("a", { href: `${widgetPath(widget)}/edit` }, "Edit"),
    destroyLink(widget),
    h("a", { href: `${widgetPath(widget)}/images` }, "Images"),
  ),
  h(
    "dl",
    null,
    h("dt", null, "Title"),
    h("dd", null, widget.title),
    h("dt", null, "Description"),
    h("dd", null, widget.description),
  ),
];

/** The index page (a page of rows and the paginator) as an HTML string. */
export const indexHtml = (rows, paginator, url) =>
  h(Layout, null, h(Index, { widgets: rows, paginator, url })).toString();

/** The show page as an HTML string. */
export const showHtml = (widget) => h(Layout, null, h(Show, { widget })).toString();
