import { negotiateFormat, Resource } from "wisent";
import { h } from "wisent/jsx/jsx-runtime";
import { Image } from "../models/image.mjs";
import { Widget } from "../models/widget.mjs";

const Caption = ({ image }) => h("p", { "data-field": "caption" }, image.caption);

/** Images nested under widgets (`wisent g r image caption --parent widget`). */
export class ImagesResource extends Resource {
  async list(c) {
    const tx = await c.tx();
    const widget = await Widget.find(tx, c.req.param("widget_id"));
    const images = await Image.query(tx).where("widget_id", "=", widget.id).orderBy("id").execute();
    return c.respond(200, {
      html: () =>
        h(
          "ul",
          null,
          images.map((image) => h("li", null, h(Caption, { image }))),
        ),
      json: images,
      xml: images,
    });
  }

  async show(c) {
    const image = await this.#find(c, await c.tx());
    return c.respond(200, { html: () => h(Caption, { image }), json: image, xml: image });
  }

  async create(c) {
    const attrs = await c.bind();
    const tx = await c.tx();
    const widget = await Widget.find(tx, c.req.param("widget_id"));
    const image = await Image.create(tx, { ...attrs, widget_id: widget.id });
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("image.created.success"));
      return c.redirectTo(303, "widgetImagePath", { widget_id: widget.id, image_id: image.id });
    }
    return c.respond(201, { json: image, xml: image });
  }

  async update(c) {
    const attrs = await c.bind();
    const tx = await c.tx();
    const image = await Image.update(tx, await this.#find(c, tx), { caption: attrs.caption });
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("image.updated.success"));
      return c.redirectTo(303, "widgetImagePath", {
        widget_id: image.widget_id,
        image_id: image.id,
      });
    }
    return c.respond(200, { json: image, xml: image });
  }

  async destroy(c) {
    const tx = await c.tx();
    const image = await Image.destroy(tx, await this.#find(c, tx));
    if (negotiateFormat(c) === "html") {
      c.flash("success", c.t("image.destroyed.success"));
      return c.redirectTo(303, "widgetImagesPath", { widget_id: image.widget_id });
    }
    return c.respond(200, { json: image, xml: image });
  }

  async #find(c, tx) {
    const widget = await Widget.find(tx, c.req.param("widget_id"));
    const image = await Image.find(tx, c.req.param("image_id"));
    if (image.widget_id !== widget.id) return Image.find(tx, "not-in-this-widget");
    return image;
  }
}
