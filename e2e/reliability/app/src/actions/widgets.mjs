import { negotiateFormat, paginationHeaders, Resource } from "wisent";
import { h } from "wisent/jsx/jsx-runtime";
import { Widget } from "../models/widget.mjs";
import { Edit, Index, New, Show } from "../templates/widgets/views.mjs";

/**
 * The entered values to show again in a form with errors: only strings. A bound body can hold
 * anything (a JSON array nested 100,000 deep as "title" overflowed the stack when JSX turned it
 * into an attribute value).
 */
const entered = (attrs) =>
  Object.fromEntries(
    ["title", "description"]
      .filter((key) => typeof attrs[key] === "string")
      .map((key) => [key, attrs[key]]),
  );

/** The seven operations of the spec's Endpoints part, as `wisent g r widget ...` writes them. */
export class WidgetsResource extends Resource {
  async list(c) {
    const { rows, paginator } = await Widget.paginate(await c.tx(), c.req.query());
    for (const [name, value] of Object.entries(paginationHeaders(paginator, c.req.url))) {
      c.header(name, value);
    }
    return c.respond(200, {
      html: () => h(Index, { widgets: rows, paginator, url: c.req.url }),
      json: rows,
      xml: rows,
    });
  }

  async show(c) {
    const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
    return c.respond(200, { html: () => h(Show, { widget }), json: widget, xml: widget });
  }

  new(c) {
    return c.respond(200, { html: () => h(New, { widget: {} }) });
  }

  async create(c) {
    // Bind first: the transaction begins only once the whole body has arrived.
    const attrs = await c.bind();
    const checked = Widget.validate(attrs);
    if (!checked.ok) {
      return c.respond(422, {
        html: () => h(New, { widget: entered(attrs), errors: checked.errors }),
        json: checked.errors,
        xml: checked.errors,
      });
    }
    const widget = await Widget.create(await c.tx(), checked.data);
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("widget.created.success"));
      return c.redirectTo(303, "widgetPath", { widget_id: widget.id });
    }
    return c.respond(201, { json: widget, xml: widget });
  }

  async edit(c) {
    const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
    return c.respond(200, { html: () => h(Edit, { widget }) });
  }

  async update(c) {
    const attrs = await c.bind();
    const tx = await c.tx();
    const widget = await Widget.find(tx, c.req.param("widget_id"));
    const checked = Widget.validate({
      title: widget.title,
      description: widget.description,
      ...attrs,
    });
    if (!checked.ok) {
      return c.respond(422, {
        html: () => h(Edit, { widget: { ...widget, ...entered(attrs) }, errors: checked.errors }),
        json: checked.errors,
        xml: checked.errors,
      });
    }
    const updated = await Widget.update(tx, widget, checked.data);
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("widget.updated.success"));
      return c.redirectTo(303, "widgetPath", { widget_id: updated.id });
    }
    return c.respond(200, { json: updated, xml: updated });
  }

  async destroy(c) {
    const tx = await c.tx();
    const widget = await Widget.destroy(tx, await Widget.find(tx, c.req.param("widget_id")));
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("widget.destroyed.success"));
      return c.redirectTo(303, "widgetsPath");
    }
    return c.respond(200, { json: widget, xml: widget });
  }
}
