import { describe, expect, it } from "vitest";
import { isHttpError } from "../base/http-error.js";
import { ValidationFailedError } from "./model.js";
import { StoredDate } from "./stored-date.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";
import { Part, Widget } from "./test-support/widget.js";

const available = await availableDialects();

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe.each(DIALECTS)("models on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect]);

  it.skipIf(!available[dialect])("creates, finds, updates and destroys a widget", async () => {
    const db = t.db.kysely;
    const created = await Widget.create(db, { title: "  Gear  " });
    expect(created.title).toBe("Gear");
    expect(created.description).toBeNull();
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.id[14]).toBe("7");
    expect(created.created_at).toBeInstanceOf(Date);

    const found = await Widget.find(db, created.id);
    expect(found.title).toBe("Gear");
    expect(found.created_at).toBeInstanceOf(Date);
    // Read back as StoredDate on every dialect: JSON output formats each timestamp once, cheaply.
    expect(found.created_at).toBeInstanceOf(StoredDate);
    expect(created.created_at).toBeInstanceOf(StoredDate);
    expect(found.created_at.toISOString()).toBe(created.created_at.toISOString());
    expect(JSON.parse(JSON.stringify(found))).toEqual({
      id: created.id,
      title: "Gear",
      description: null,
      created_at: created.created_at.toISOString(),
      updated_at: created.updated_at.toISOString(),
    });

    const updated = await Widget.update(db, found, { description: "teeth" });
    expect(updated).toMatchObject({ id: created.id, title: "Gear", description: "teeth" });
    expect(updated.updated_at.getTime()).toBeGreaterThanOrEqual(created.updated_at.getTime());
    expect((await Widget.find(db, created.id)).description).toBe("teeth");

    const destroyed = await Widget.destroy(db, updated);
    expect(destroyed.description).toBe("teeth");
    const missing = await rejection(Widget.find(db, created.id));
    expect(isHttpError(missing) && missing.status).toBe(404);
    expect((missing as Error).message).toBe(`widget not found: ${created.id}`);
  });

  it.skipIf(!available[dialect])("answers 404 naming the model for a malformed id", async () => {
    const error = await rejection(Widget.find(t.db.kysely, "not-a-uuid"));
    expect(isHttpError(error) && error.status).toBe(404);
    expect((error as Error).message).toBe("widget not found: not-a-uuid");
  });

  it.skipIf(!available[dialect])("refuses invalid attributes with Buffalo's wording", async () => {
    const error = await rejection(Widget.create(t.db.kysely, { title: "   " }));
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).status).toBe(422);
    expect((error as ValidationFailedError).errors.toJSON()).toEqual({
      errors: { title: ["Title can not be blank."] },
    });
    expect(await Widget.all(t.db.kysely)).toEqual([]);
  });

  it.skipIf(!available[dialect])("round-trips every portable column type", async () => {
    const db = t.db.kysely;
    const widget = await Widget.create(db, { title: "Frame" });
    const shipped = new Date("2024-05-01T12:34:56.789Z");
    const part = await Part.create(db, {
      widget_id: widget.id,
      name: "bolt",
      in_stock: true,
      price: "12.50",
      shipped_at: shipped,
      made_on: "2024-04-30",
      specs: { size: "M8", tags: ["steel"] },
    });
    const back = await Part.find(db, part.id);
    expect(back.in_stock).toBe(true);
    expect(back.quantity).toBe(0);
    expect(back.price).toBe("12.50");
    expect(back.shipped_at?.toISOString()).toBe(shipped.toISOString());
    expect(back.made_on).toBe("2024-04-30");
    const specs = typeof back.specs === "string" ? JSON.parse(back.specs) : back.specs;
    expect(specs).toEqual({ size: "M8", tags: ["steel"] });

    const off = await Part.update(db, part, { in_stock: false });
    expect(off.in_stock).toBe(false);
    expect((await Part.find(db, part.id)).in_stock).toBe(false);

    // The foreign key holds: a part cannot point to a missing widget (a 422 on the field), and
    // its widget cannot be deleted before it (restrict, the default: a 409 naming the parts).
    await expect(
      Part.create(db, { ...part, name: "nut", widget_id: "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b" }),
    ).rejects.toThrow("Widget must exist.");
    await expect(Widget.destroy(db, widget)).rejects.toThrow("Widget has 1 part.");
    await Part.destroy(db, off);
    await Widget.destroy(db, widget);
    expect(await Part.all(db)).toEqual([]);
  });

  it.skipIf(!available[dialect])("paginates in creation order", async () => {
    const db = t.db.kysely;
    const titles = Array.from({ length: 7 }, (_, i) => `w${i + 1}`);
    for (const title of titles) await Widget.create(db, { title });
    const second = await Widget.paginate(db, { page: "2", per_page: "3" });
    expect(second.rows.map((w) => w.title)).toEqual(["w4", "w5", "w6"]);
    expect(second.paginator).toEqual({
      page: 2,
      per_page: 3,
      offset: 3,
      total_entries_size: 7,
      current_entries_size: 3,
      total_pages: 3,
    });
    const last = await Widget.paginate(db, { page: "3", per_page: "3" });
    expect(last.rows.map((w) => w.title)).toEqual(["w7"]);
    expect(last.paginator.total_entries_size).toBe(7);
    const beyond = await Widget.paginate(db, { page: "9", per_page: "3" });
    expect(beyond.rows).toEqual([]);
    expect(beyond.paginator).toMatchObject({ page: 9, total_entries_size: 7, total_pages: 3 });
    const all = await Widget.paginate(db, {});
    expect(all.paginator).toMatchObject({ page: 1, per_page: 20, total_entries_size: 7 });
  });

  it.skipIf(!available[dialect])(
    "keeps find, paginate and query to a scope (an owned resource's c.ownerScope())",
    async () => {
      const db = t.db.kysely;
      const [a, b] = [
        await Widget.create(db, { title: "a" }),
        await Widget.create(db, { title: "b" }),
      ];
      const part = (widget: Widget, name: string) =>
        Part.create(db, {
          widget_id: widget.id,
          name,
          in_stock: true,
          price: "1.00",
          made_on: "2024-05-01",
        });
      const mine = [await part(a, "a1"), await part(a, "a2"), await part(a, "a3")];
      const theirs = await part(b, "b1");
      const scope = { widget_id: a.id };
      expect((await Part.find(db, mine[0]!.id, scope)).name).toBe("a1");
      const refused = await rejection(Part.find(db, theirs.id, scope));
      expect(isHttpError(refused) && refused.status).toBe(404);
      expect((refused as Error).message).toBe(`part not found: ${theirs.id}`);
      // The count runs only when the page does not show the total: page 1 of 2 asks for it.
      const first = await Part.paginate(db, { per_page: "2" }, scope);
      expect(first.rows.map((p) => p.name)).toEqual(["a1", "a2"]);
      expect(first.paginator.total_entries_size).toBe(3);
      const last = await Part.paginate(db, { page: "2", per_page: "2" }, scope);
      expect(last.rows.map((p) => p.name)).toEqual(["a3"]);
      const listed = await Part.query(db, { widget_id: b.id }).execute();
      expect(listed.map((p) => p.name)).toEqual(["b1"]);
      // An empty scope keeps every row.
      expect((await Part.find(db, theirs.id, {})).name).toBe("b1");
    },
  );
});

describe("find and paginate", () => {
  it("answer with a rejection, never a throw, when the read itself fails at once", async () => {
    // Not a database at all: the read throws before any query runs.
    const broken = {} as Parameters<typeof Widget.find>[0];
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = Widget.find(broken, "0190f5a2-7b1c-7cde-8f00-1234567890ab");
    }).not.toThrow();
    expect(await rejection(result!)).toBeInstanceOf(Error);
    let malformed: Promise<unknown> | undefined;
    expect(() => {
      malformed = Widget.find(broken, "nope");
    }).not.toThrow();
    expect(isHttpError(await rejection(malformed!))).toBe(true);
    let page: Promise<unknown> | undefined;
    expect(() => {
      page = Widget.paginate(broken, { page: "2" });
    }).not.toThrow();
    expect(await rejection(page!)).toBeInstanceOf(Error);
  });
});
