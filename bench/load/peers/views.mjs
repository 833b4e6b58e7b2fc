// The peers' widget views (index and show), hand-written with hono/jsx calls after the pages
// `wisent g r widget` generated when the load bench was first written. The Wisent web variant
// now renders examples/shop's own generated templates, which carry more markup (skip link,
// header navigation, footer, translated labels): compare HTML figures with that in mind.
import { jsx as h } from "hono/jsx";
import { CsrfField, Paginator } from "wisent";

const destroyLink = (href) =>
  h(
    "a",
    { href, "data-method": "DELETE", "data-confirm": "Are you sure?", class: "btn btn-danger" },
    "Destroy",
  );

/** index: heading, New link, Title column with View/Edit/Destroy per row, the paginator. */
export const Index = ({ widgets, paginator, url }) =>
  h(
    "section",
    null,
    h("h1", null, "Widgets"),
    h("a", { href: "/widgets/new", class: "btn btn-primary" }, "Create New Widget"),
    h(
      "table",
      { class: "table" },
      h("thead", null, h("tr", null, h("th", null, "Title"), h("th", null, ""))),
      h(
        "tbody",
        null,
        widgets.map((w) =>
          h(
            "tr",
            null,
            h("td", null, w.title),
            h(
              "td",
              null,
              h("a", { href: `/widgets/${w.id}` }, "View"),
              " ",
              h("a", { href: `/widgets/${w.id}/edit` }, "Edit"),
              " ",
              destroyLink(`/widgets/${w.id}`),
            ),
          ),
        ),
      ),
    ),
    h(Paginator, { paginator, url }),
  );

/** show: heading, back/Edit/Destroy links, Title and Description. */
export const Show = ({ widget }) =>
  h(
    "section",
    null,
    h("h1", null, "Widget Details"),
    h(
      "p",
      null,
      h("a", { href: "/widgets" }, "Back to all Widgets"),
      " ",
      h("a", { href: `/widgets/${widget.id}/edit` }, "Edit"),
      " ",
      destroyLink(`/widgets/${widget.id}`),
    ),
    h(
      "dl",
      null,
      h("dt", null, "Title"),
      h("dd", { "data-field": "title" }, widget.title),
      h("dt", null, "Description"),
      h("dd", { "data-field": "description" }, widget.description ?? ""),
    ),
  );

const Errors = ({ errors }) =>
  errors
    ? h(
        "ul",
        { class: "errors" },
        Object.entries(errors.errors).flatMap(([field, messages]) =>
          messages.map((m) => h("li", { "data-field": field }, m)),
        ),
      )
    : null;

/** _form: Title input, Description textarea, Save. */
const Form = ({ values, errors }) =>
  h(
    "div",
    null,
    h(Errors, { errors }),
    h("label", { for: "widget-title" }, "Title"),
    h("input", { id: "widget-title", type: "text", name: "title", value: values.title ?? "" }),
    h("label", { for: "widget-description" }, "Description"),
    h(
      "textarea",
      { id: "widget-description", name: "description", rows: 10 },
      values.description ?? "",
    ),
    h("button", { type: "submit" }, "Save"),
  );

export const New = ({ values, errors }) =>
  h(
    "section",
    null,
    h("h1", null, "New Widget"),
    h(
      "form",
      { action: "/widgets", method: "POST" },
      h(CsrfField, null),
      h(Form, { values, errors }),
    ),
  );

export const Edit = ({ widget, values, errors }) =>
  h(
    "section",
    null,
    h("h1", null, "Edit Widget"),
    h(
      "form",
      { action: `/widgets/${widget.id}`, method: "POST" },
      h(CsrfField, null),
      h("input", { type: "hidden", name: "_method", value: "PUT" }),
      h(Form, { values, errors }),
    ),
  );
