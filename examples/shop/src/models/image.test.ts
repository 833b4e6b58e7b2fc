import { beforeAll, describe, expect, it } from "vitest";
import { freshApp } from "../../test/support.js";
import { Image } from "./image.js";
import { Widget } from "./widget.js";

let db: Awaited<ReturnType<typeof freshApp>>["db"];
beforeAll(async () => {
  ({ db } = await freshApp());
});

describe("Image model", () => {
  it("needs a caption and a widget", () => {
    const result = Image.validate({ caption: "" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(Object.keys(result.errors.errors).sort()).toEqual(["caption", "widget_id"]);
  });

  it("belongs to a widget that cannot be deleted before it (foreign key, restrict)", async () => {
    const widget = await Widget.create(db.kysely, { title: "Parent", description: null });
    const image = await Image.create(db.kysely, { widget_id: widget.id, caption: "Child" });
    expect(image.widget_id).toBe(widget.id);
    await expect(
      Image.create(db.kysely, {
        widget_id: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
        caption: "Orphan",
      }),
    ).rejects.toThrow("Widget must exist.");
    await expect(Widget.destroy(db.kysely, widget)).rejects.toThrow("Widget has 1 image.");
    await Image.destroy(db.kysely, image);
    await Widget.destroy(db.kysely, widget);
    await expect(Image.find(db.kysely, image.id)).rejects.toThrow("not found");
  });
});
