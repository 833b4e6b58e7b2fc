import { jsx as h } from "hono/jsx";
import { negotiateFormat, paginationHeaders, Resource } from "wisent";
import { Widget } from "../models/widget.mjs";
import { Edit, Index, New, Show } from "../templates/widgets.mjs";

/** The widgets resource as `wisent g r widget title description:nulls.Text` writes it. */
export class WidgetsResource extends Resource {
  async list(c) {
    const page = await Widget.paginate(await c.tx(), c.req.query());
    const { rows: widgets, paginator } = page;
    for (const [name, value] of Object.entries(paginationHeaders(paginator, c.req.url))) {
      c.header(name, value);
    }
    return c.respond(200, {
      html: () => h(Index, { widgets, paginator, url: c.req.url }),
      json: widgets,
      xml: widgets,
    });
  }

  async show(c) {
    const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
    return c.respond(200, { html: () => h(Show, { widget }), json: widget, xml: widget });
  }

  new(c) {
    return c.respond(200, { html: () => h(New, { values: {} }) });
  }

  async create(c) {
    const input = await c.bind();
    const result = Widget.validate(input);
    if (!result.ok) {
      return c.respond(422, {
        html: () => h(New, { values: input, errors: result.errors }),
        json: result.errors,
        xml: result.errors,
      });
    }
    const widget = await Widget.create(await c.tx(), result.data);
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("widget.created.success"));
      return c.redirectTo(303, "widgetPath", { widget_id: widget.id });
    }
    return c.respond(201, { json: widget, xml: widget });
  }

  async edit(c) {
    const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
    return c.respond(200, { html: () => h(Edit, { widget, values: widget }) });
  }

  async update(c) {
    const input = await c.bind();
    const tx = await c.tx();
    const widget = await Widget.find(tx, c.req.param("widget_id"));
    const values = { ...widget, ...input };
    const result = Widget.validate(values);
    if (!result.ok) {
      return c.respond(422, {
        html: () => h(Edit, { widget, values, errors: result.errors }),
        json: result.errors,
        xml: result.errors,
      });
    }
    const updated = await Widget.update(tx, widget, result.data);
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
