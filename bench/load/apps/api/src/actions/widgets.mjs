import { paginationHeaders, Resource } from "wisent";
import { Widget } from "../models/widget.mjs";

/** The widgets resource as `wisent g r widget title description:nulls.Text` writes it in an --api app. */
export class WidgetsResource extends Resource {
  async list(c) {
    const page = await Widget.paginate(await c.tx(), c.req.query());
    const { rows: widgets, paginator } = page;
    for (const [name, value] of Object.entries(paginationHeaders(paginator, c.req.url))) {
      c.header(name, value);
    }
    return c.respond(200, { json: widgets, xml: widgets });
  }

  async show(c) {
    const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
    return c.respond(200, { json: widget, xml: widget });
  }

  async create(c) {
    const input = await c.bind();
    const result = Widget.validate(input);
    if (!result.ok) return c.respond(422, { json: result.errors, xml: result.errors });
    const widget = await Widget.create(await c.tx(), result.data);
    return c.respond(201, { json: widget, xml: widget });
  }

  async update(c) {
    const input = await c.bind();
    const tx = await c.tx();
    const widget = await Widget.find(tx, c.req.param("widget_id"));
    const result = Widget.validate({ ...widget, ...input });
    if (!result.ok) return c.respond(422, { json: result.errors, xml: result.errors });
    const updated = await Widget.update(tx, widget, result.data);
    return c.respond(200, { json: updated, xml: updated });
  }

  async destroy(c) {
    const tx = await c.tx();
    const widget = await Widget.destroy(tx, await Widget.find(tx, c.req.param("widget_id")));
    return c.respond(200, { json: widget, xml: widget });
  }
}
