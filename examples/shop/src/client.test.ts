/**
 * The typed client of `wisent/client` against the shop, in-process: its operations answer as the
 * JSON API does, and its types come from the resource declarations (type tests below fail `tsc`
 * when the typing regresses: `npm run typecheck` checks this file).
 */
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createClient, type HttpFailure, type ValidationFailure } from "wisent/client";
import { freshApp, type ShopApp, UUID } from "../test/support.js";

type Api = typeof import("./app.js");

let app: ShopApp;
let api: ReturnType<typeof createClient<Api>>;
beforeAll(async () => {
  ({ app } = await freshApp());
  api = createClient<Api>({ fetch: app.fetch });
});

describe("createClient<typeof import('./app.js')>", () => {
  it("creates, shows, lists, updates and destroys widgets, typed from the Widget model", async () => {
    const created = await api.widgets.create({ title: "Lamp", description: "bright" });
    if (!created.ok) throw new Error(`create failed: ${created.status}`);
    expect(created.status).toBe(201);
    expectTypeOf(created.data.title).toEqualTypeOf<string>();
    expectTypeOf(created.data.description).toEqualTypeOf<string | null>();
    expectTypeOf(created.data.created_at).toEqualTypeOf<string>();
    expect(created.data).toMatchObject({ title: "Lamp", description: "bright" });
    expect(created.data.id).toMatch(UUID);

    const shown = await api.widgets.show({ widget_id: created.data.id });
    expect(shown.ok && shown.data.title).toBe("Lamp");

    const page = await api.widgets.list({ page: 1, per_page: 1 });
    if (!page.ok) throw new Error(page.error);
    expectTypeOf(page.data).toEqualTypeOf<
      {
        id: string;
        created_at: string;
        updated_at: string;
        title: string;
        description: string | null;
      }[]
    >();
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toMatchObject({ page: 1, per_page: 1 });

    const updated = await api.widgets.update({ widget_id: created.data.id }, { title: "Lamp 2" });
    expect(updated.ok && updated.data.title).toBe("Lamp 2");

    const destroyed = await api.widgets.destroy({ widget_id: created.data.id });
    expect(destroyed.ok && destroyed.data.id).toBe(created.data.id);
    const gone = await api.widgets.show({ widget_id: created.data.id });
    expect(gone).toMatchObject({
      ok: false,
      status: 404,
      error: `widget not found: ${created.data.id}`,
    });
  });

  it("answers a 422 as a typed failure with the field errors", async () => {
    const result = await api.widgets.create({ title: "" });
    expect(result.ok).toBe(false);
    if (result.ok || result.status !== 422) throw new Error("expected a 422");
    expectTypeOf(result).toEqualTypeOf<ValidationFailure<"title" | "description">>();
    expect(result.errors.title).toEqual(["Title can not be blank."]);
  });

  it("reaches nested resources by their route name's stem (widgetImages)", async () => {
    const widget = await api.widgets.create({ title: "Camera" });
    if (!widget.ok) throw new Error("create failed");
    const image = await api.widgetImages.create(
      { widget_id: widget.data.id },
      { caption: "Front" },
    );
    if (!image.ok) throw new Error(`image create failed: ${image.status}`);
    expectTypeOf(image.data.widget_id).toEqualTypeOf<string>();
    expect(image.data).toMatchObject({ widget_id: widget.data.id, caption: "Front" });
    const list = await api.widgetImages.list({ widget_id: widget.data.id });
    expect(list.ok && list.data.map((i) => i.caption)).toEqual(["Front"]);
    const missing = await api.widgetImages.list({
      widget_id: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
    });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expectTypeOf(missing).toEqualTypeOf<HttpFailure>();
  });

  it("walks a list by the cursors of its Links (`after`), and gets a bad cursor's 400", async () => {
    for (const title of ["Cursor A", "Cursor B", "Cursor C"]) await api.widgets.create({ title });
    const titles: string[] = [];
    let page = await api.widgets.list({ after: "", per_page: 2 });
    for (;;) {
      if (!page.ok) throw new Error(page.error);
      expectTypeOf(page.cursors.next).toEqualTypeOf<string | undefined>();
      titles.push(...page.data.map((w) => w.title));
      if (page.cursors.next === undefined) break;
      page = await api.widgets.list({ after: page.cursors.next, per_page: 2 });
    }
    const all = await api.widgets.list({ per_page: 100 });
    expect(titles).toEqual(all.ok && all.data.map((w) => w.title));
    expect(titles).toEqual(expect.arrayContaining(["Cursor A", "Cursor B", "Cursor C"]));
    const bad = await api.widgets.list({ after: "garbage!" });
    expect(bad).toMatchObject({ ok: false, status: 400 });
    expect(!bad.ok && bad.error).toContain('invalid cursor in "after"');
  });

  it("rejects a call without its path parameter, naming it", async () => {
    // @ts-expect-error widget_id is required
    await expect(api.widgets.show({})).rejects.toThrow(
      'widgets.show: missing path parameter "widget_id"',
    );
  });
});

it("makes a missing path parameter, a wrong body or an unknown resource a tsc error", () => {
  // Compile-time only (never called): each line must be a type error, or `tsc` fails on the
  // unused directive.
  const typeErrors = (client: typeof api) => {
    // @ts-expect-error a missing path parameter
    void client.widgets.update({}, { title: "x" });
    // @ts-expect-error a nested list without its parent's parameter
    void client.widgetImages.list({ page: 1 });
    // @ts-expect-error a wrong body field type
    void client.widgets.create({ title: 42 });
    // @ts-expect-error a required field left out (title has no default)
    void client.widgets.create({ description: "no title" });
    // @ts-expect-error a field the model does not have
    void client.widgets.create({ title: "x", colour: "red" });
    // @ts-expect-error an unknown resource
    void client.gadgets.list();
    // @ts-expect-error an unknown action
    void client.widgets.archive({ widget_id: "1" });
    // @ts-expect-error the nested create takes the parent's parameter first
    void client.widgetImages.create({ caption: "x" });
  };
  expectTypeOf(typeErrors).toBeFunction();
});
