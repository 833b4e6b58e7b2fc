import { CsrfField, Paginator } from "wisent";
import { h } from "wisent/jsx/jsx-runtime";

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

/** The shared form: Title input, Description textarea (10 rows), Save. */
export const Form = ({ widget, errors }) =>
  h(
    "div",
    null,
    h(Errors, { errors }),
    h("label", { for: "widget-title" }, "Title"),
    h("input", { id: "widget-title", type: "text", name: "title", value: widget.title ?? "" }),
    h("label", { for: "widget-description" }, "Description"),
    h(
      "textarea",
      { id: "widget-description", name: "description", rows: 10 },
      widget.description ?? "",
    ),
    h("button", { type: "submit" }, "Save"),
  );

export const New = ({ widget, errors }) =>
  h(
    "section",
    null,
    h("h1", null, "New Widget"),
    h(
      "form",
      { action: "/widgets", method: "POST" },
      h(CsrfField, null),
      h(Form, { widget, errors }),
    ),
    h("a", { href: "/widgets", "data-confirm": "Are you sure?" }, "Cancel"),
  );

export const Edit = ({ widget, errors }) =>
  h(
    "section",
    null,
    h("h1", null, "Edit Widget"),
    h(
      "form",
      { action: `/widgets/${widget.id}`, method: "POST" },
      h(CsrfField, null),
      h("input", { type: "hidden", name: "_method", value: "PUT" }),
      h(Form, { widget, errors }),
    ),
    h("a", { href: `/widgets/${widget.id}`, "data-confirm": "Are you sure?" }, "Cancel"),
  );
