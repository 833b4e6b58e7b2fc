import { beforeAll, describe, expect, it } from "vitest";
import { clients, freshApp, type ShopApp, UUID } from "../../test/support.js";

let app: ShopApp;
let widgetId: string;
let otherWidgetId: string;
beforeAll(async () => {
  ({ app } = await freshApp());
  const { json } = clients(app);
  widgetId = (
    (await (await json.post("/widgets", { json: { title: "Camera" } })).json()) as { id: string }
  ).id;
  otherWidgetId = (
    (await (await json.post("/widgets", { json: { title: "Lens" } })).json()) as { id: string }
  ).id;
});

async function createImage(caption: string, parent = widgetId) {
  const res = await clients(app).json.post(`/widgets/${parent}/images`, { json: { caption } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; widget_id: string; caption: string };
}

const MISSING = "0190f5a2-7b1c-7cde-8f00-1234567890ab";

describe("ImagesResource (nested under widgets)", () => {
  it("List: only this widget's images, in HTML, JSON and XML; 404 for a missing widget", async () => {
    await createImage("Front");
    await createImage("Elsewhere", otherWidgetId);
    const { browser, json, xml } = clients(app);
    const list = (await (await json.get(`/widgets/${widgetId}/images`)).json()) as {
      caption: string;
    }[];
    expect(list.map((i) => i.caption)).toContain("Front");
    expect(list.map((i) => i.caption)).not.toContain("Elsewhere");
    expect(await (await browser.get(`/widgets/${widgetId}/images`)).text()).toContain("Front");
    expect(await (await xml.get(`/widgets/${widgetId}/images`)).text()).toContain(
      "<caption>Front</caption>",
    );
    expect((await json.get(`/widgets/${MISSING}/images`)).status).toBe(404);
  });

  it("Show: the image of this widget; 404 when it belongs to another widget", async () => {
    const image = await createImage("Side");
    const { json, browser } = clients(app);
    const shown = (await (
      await json.get(`/widgets/${widgetId}/images/${image.id}`)
    ).json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ id: image.id, widget_id: widgetId, caption: "Side" });
    expect(shown.id).toMatch(UUID);
    expect(await (await browser.get(`/widgets/${widgetId}/images/${image.id}`)).text()).toContain(
      "Side",
    );
    expect((await json.get(`/widgets/${otherWidgetId}/images/${image.id}`)).status).toBe(404);
  });

  it("New: a form under the widget (HTML only)", async () => {
    const { browser, json } = clients(app);
    const html = await (await browser.get(`/widgets/${widgetId}/images/new`)).text();
    expect(html).toContain(`action="/widgets/${widgetId}/images"`);
    expect((await json.get(`/widgets/${widgetId}/images/new`)).status).toBe(406);
  });

  it("Create: 303 with the flash (HTML), 201 (JSON), 422 for a blank caption, and the widget id comes from the path", async () => {
    const { browser, json } = clients(app);
    const res = await browser.post(`/widgets/${widgetId}/images`, { form: { caption: "Top" } });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`^/widgets/${widgetId}/images/[0-9a-f-]{36}$`));
    expect(await (await browser.get(location)).text()).toContain("Image was successfully created.");

    const forged = await json.post(`/widgets/${widgetId}/images`, {
      json: { caption: "Mine", widget_id: otherWidgetId },
    });
    expect(forged.status).toBe(201);
    expect(((await forged.json()) as { widget_id: string }).widget_id).toBe(widgetId);

    const invalid = await json.post(`/widgets/${widgetId}/images`, { json: { caption: "" } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ errors: { caption: ["Caption can not be blank."] } });
  });

  it("Edit: the form filled with the image", async () => {
    const image = await createImage("Editable");
    const html = await (
      await clients(app).browser.get(`/widgets/${widgetId}/images/${image.id}/edit`)
    ).text();
    expect(html).toContain('value="Editable"');
  });

  it("Update: 303 (HTML), 200 (JSON), 404 through another widget", async () => {
    const image = await createImage("Before");
    const { browser, json } = clients(app);
    const res = await browser.post(`/widgets/${widgetId}/images/${image.id}`, {
      form: { _method: "PUT", caption: "After" },
    });
    expect(res.status).toBe(303);
    const updated = await json.put(`/widgets/${widgetId}/images/${image.id}`, {
      json: { caption: "JSON" },
    });
    expect(await updated.json()).toMatchObject({ caption: "JSON" });
    expect(
      (await json.put(`/widgets/${otherWidgetId}/images/${image.id}`, { json: { caption: "x" } }))
        .status,
    ).toBe(404);
  });

  it("Destroy: 303 to the widget's images (HTML), 200 (JSON), 404 through another widget", async () => {
    const a = await createImage("Gone A");
    const b = await createImage("Gone B");
    const { browser, json } = clients(app);
    expect((await json.delete(`/widgets/${otherWidgetId}/images/${a.id}`)).status).toBe(404);
    const res = await browser.post(`/widgets/${widgetId}/images/${a.id}`, {
      form: { _method: "DELETE" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/widgets/${widgetId}/images`);
    const deleted = await json.delete(`/widgets/${widgetId}/images/${b.id}`);
    expect(await deleted.json()).toMatchObject({ id: b.id });
    expect((await json.get(`/widgets/${widgetId}/images/${b.id}`)).status).toBe(404);
  });

  it("a widget with images is not destroyed: back to it with the reason (HTML), 409 naming them (JSON, XML)", async () => {
    const { browser, json, xml } = clients(app);
    const kept = (
      (await (await json.post("/widgets", { json: { title: "Tripod" } })).json()) as { id: string }
    ).id;
    await createImage("Leg", kept);
    const res = await browser.post(`/widgets/${kept}`, { form: { _method: "DELETE" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/widgets/${kept}`);
    expect(await (await browser.get(`/widgets/${kept}`)).text()).toContain("Widget has 1 image.");
    const refused = await json.delete(`/widgets/${kept}`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "Widget has 1 image.",
      code: 409,
      error_code: "E_DEPENDENT_RECORDS",
    });
    const inXml = await xml.delete(`/widgets/${kept}`);
    expect(inXml.status).toBe(409);
    const body = await inXml.text();
    expect(body).toContain('<response code="409">');
    expect(body).toContain("<error>Widget has 1 image.</error>");
    expect(body).toContain("<error_code>E_DEPENDENT_RECORDS</error_code>");
    expect((await json.get(`/widgets/${kept}`)).status).toBe(200);
  });

  it("every operation in XML, scoped to the widget", async () => {
    const { xml } = clients(app);
    const send = (body: string) => ({ body, headers: { "content-type": "application/xml" } });
    const created = await xml.post(
      `/widgets/${widgetId}/images`,
      send("<image><caption>X</caption></image>"),
    );
    expect(created.status).toBe(201);
    const doc = await created.text();
    expect(doc).toContain("<caption>X</caption>");
    expect(doc).toContain(`<widget_id>${widgetId}</widget_id>`);
    const id = /<id>([^<]+)<\/id>/.exec(doc)?.[1] ?? "";
    expect(id).toMatch(UUID);

    expect(await (await xml.get(`/widgets/${widgetId}/images/${id}`)).text()).toContain(
      "<caption>X</caption>",
    );
    const updated = await xml.put(
      `/widgets/${widgetId}/images/${id}`,
      send("<image><caption>Y</caption></image>"),
    );
    expect(updated.status).toBe(200);
    expect(await updated.text()).toContain("<caption>Y</caption>");
    const invalid = await xml.put(
      `/widgets/${widgetId}/images/${id}`,
      send("<image><caption></caption></image>"),
    );
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain(
      '<error field="caption">Caption can not be blank.</error>',
    );
    expect((await xml.delete(`/widgets/${otherWidgetId}/images/${id}`)).status).toBe(404);
    const destroyed = await xml.delete(`/widgets/${widgetId}/images/${id}`);
    expect(destroyed.status).toBe(200);
    expect(await destroyed.text()).toContain("<caption>Y</caption>");
    expect((await xml.get(`/widgets/${widgetId}/images/${id}`)).status).toBe(404);
  });

  it("HTML: 422 re-renders the form with the error, flashes on update and destroy, 404 pages", async () => {
    const image = await createImage("Flashy");
    const { browser } = clients(app);
    const invalid = await browser.post(`/widgets/${widgetId}/images`, { form: { caption: " " } });
    expect(invalid.status).toBe(422);
    const form = await invalid.text();
    expect(form).toContain("<h1>New Image</h1>");
    expect(form).toContain("Caption can not be blank.");

    const updated = await browser.post(`/widgets/${widgetId}/images/${image.id}`, {
      form: { _method: "PUT", caption: "Renamed" },
    });
    expect(await (await browser.follow(updated)).text()).toContain(
      "Image was successfully updated.",
    );
    const destroyed = await browser.post(`/widgets/${widgetId}/images/${image.id}`, {
      form: { _method: "DELETE" },
    });
    const list = await (await browser.follow(destroyed)).text();
    expect(list).toContain("Image was successfully destroyed.");
    expect(list).not.toContain("Renamed");

    const missing = await browser.get(`/widgets/${MISSING}/images/new`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("text/html");
    expect((await browser.get(`/widgets/${widgetId}/images/${image.id}`)).status).toBe(404);
  });

  it("List: paginated like every list (X-Pagination, per_page)", async () => {
    const { json } = clients(app);
    for (let i = 0; i < 3; i++) await createImage(`Paged ${i}`);
    const res = await json.get(`/widgets/${widgetId}/images`, { query: { per_page: 2 } });
    expect(((await res.json()) as unknown[]).length).toBe(2);
    expect(JSON.parse(res.headers.get("x-pagination") ?? "null")).toMatchObject({
      page: 1,
      per_page: 2,
    });
  });
});
