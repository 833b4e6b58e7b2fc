import { beforeAll, describe, expect, it } from "vitest";
import { freshApp, UUID } from "../../test/support.js";
import { Widget } from "./widget.js";

let db: Awaited<ReturnType<typeof freshApp>>["db"];
beforeAll(async () => {
  ({ db } = await freshApp());
});

describe("Widget model", () => {
  it("validates: the title must be present", () => {
    const blank = Widget.validate({ title: "  " });
    expect(blank.ok).toBe(false);
    if (!blank.ok) expect(blank.errors.errors).toEqual({ title: ["Title can not be blank."] });
    expect(Widget.validate({ title: "Ok", description: null }).ok).toBe(true);
  });

  it("saves with a UUIDv7 id and both timestamps, updates updated_at, destroys", async () => {
    const created = await Widget.create(db.kysely, { title: "Saved", description: null });
    expect(created.id).toMatch(UUID);
    expect(created.created_at).toEqual(created.updated_at);
    const found = await Widget.find(db.kysely, created.id);
    expect(found).toMatchObject({ title: "Saved", description: null });
    const updated = await Widget.update(db.kysely, found, { description: "Now described" });
    expect(updated.description).toBe("Now described");
    expect(updated.updated_at.getTime()).toBeGreaterThanOrEqual(created.updated_at.getTime());
    await Widget.destroy(db.kysely, updated);
    await expect(Widget.find(db.kysely, created.id)).rejects.toThrow("not found");
  });
});
