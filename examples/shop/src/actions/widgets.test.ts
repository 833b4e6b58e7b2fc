import { beforeAll, describe, expect, it } from "vitest";
import { clients, freshApp, type ShopApp, UUID } from "../../test/support.js";

let app: ShopApp;
beforeAll(async () => {
  ({ app } = await freshApp());
});

async function createWidget(title: string, description: string | null = null) {
  const res = await clients(app).json.post("/widgets", { json: { title, description } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; title: string; description: string | null };
}

describe("WidgetsResource", () => {
  it("List: HTML index with the table and links, JSON and XML lists, pagination", async () => {
    const first = await createWidget("Alpha <b>bold</b>");
    for (let i = 0; i < 24; i++) await createWidget(`Widget ${String(i).padStart(2, "0")}`);
    const { browser, json, xml } = clients(app);

    const html = await (await browser.get("/widgets")).text();
    expect(html).toContain("<h1>Widgets</h1>");
    expect(html).toContain('href="/widgets/new"');
    expect(html).toContain("<th>Title</th>");
    expect(html).toContain("Alpha &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain(`href="/widgets/${first.id}/edit"`);
    // Destroy is a form (no JavaScript needed), confirmed by data-confirm where scripts run.
    expect(html).toMatch(
      new RegExp(
        `<form class="button-to" method="post" action="/widgets/${first.id}"><input type="hidden" name="_method" value="DELETE"/><input type="hidden" name="authenticity_token" value="[^"]+"/><button type="submit" class="link" data-confirm="Are you sure\\?">`,
      ),
    );
    expect(html).toContain('href="/widgets?page=2"');

    const page1 = await json.get("/widgets");
    const rows = (await page1.json()) as unknown[];
    expect(rows).toHaveLength(20);
    expect(JSON.parse(page1.headers.get("x-pagination") ?? "null")).toMatchObject({
      page: 1,
      per_page: 20,
      total_entries_size: 25,
      total_pages: 2,
    });
    expect(page1.headers.get("x-total-count")).toBe("25");
    expect(page1.headers.get("link")).toContain('rel="next"');

    const page2 = (await (await json.get("/widgets?page=2&per_page=10")).json()) as unknown[];
    expect(page2).toHaveLength(10);
    const bad = (await (await json.get("/widgets?page=x&per_page=-3")).json()) as unknown[];
    expect(bad).toHaveLength(20);

    const body = await (await xml.get("/widgets?per_page=2")).text();
    expect(body).toMatch(/<widgets>\s*<widget>/);
    expect(body).toContain("<title>Alpha &lt;b&gt;bold&lt;/b&gt;</title>");
  });

  it("Show: the widget in HTML, JSON (exactly the five fields) and XML; 404 when missing", async () => {
    const widget = await createWidget("Hammer", "Heavy");
    const { browser, json, xml } = clients(app);
    const html = await (await browser.get(`/widgets/${widget.id}`)).text();
    expect(html).toContain("<h1>Widget Details</h1>");
    expect(html).toContain("Hammer");
    expect(html).toContain("Heavy");

    const record = (await (await json.get(`/widgets/${widget.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(record).sort()).toEqual([
      "created_at",
      "description",
      "id",
      "title",
      "updated_at",
    ]);
    expect(record.id).toMatch(UUID);

    const doc = await (await xml.get(`/widgets/${widget.id}.xml`)).text();
    expect(doc).toContain("<title>Hammer</title>");

    const missing = await json.get("/widgets/0190f5a2-7b1c-7cde-8f00-1234567890ab");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toContain("not found");
    expect((await browser.get("/widgets/not-a-uuid")).status).toBe(404);
  });

  it("Create: 303 to the widget with the success flash (HTML), 201 with the record (JSON, XML)", async () => {
    const { browser, json, xml } = clients(app);
    const res = await browser.post("/widgets", {
      form: { title: "Form widget", description: "From a form" },
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toMatch(/^\/widgets\/[0-9a-f-]{36}$/);
    const page = await (await browser.get(location)).text();
    expect(page).toContain("Widget was successfully created.");
    expect(page).toContain("Form widget");
    expect(res.headers.get("set-cookie") ?? "").toContain("_shop_session=");

    const created = await json.post("/widgets", { json: { title: "JSON widget" } });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { description: unknown }).description).toBeNull();

    const viaXml = await xml.post("/widgets", {
      body: "<widget><title>XML widget</title></widget>",
      headers: { "content-type": "application/xml" },
    });
    expect(viaXml.status).toBe(201);
    expect(await viaXml.text()).toContain("<title>XML widget</title>");
  });

  it("Create: 422 re-renders the form with the error and the entered values (HTML), errors in JSON and XML", async () => {
    const { browser, json, xml } = clients(app);
    const res = await browser.post("/widgets", { form: { title: "", description: "kept text" } });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("<h1>New Widget</h1>");
    expect(html).toContain("Title can not be blank.");
    expect(html).toContain("kept text");

    const invalid = await json.post("/widgets", { json: { title: "" } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ errors: { title: ["Title can not be blank."] } });

    const invalidXml = await xml.post("/widgets", {
      body: "<widget><title></title></widget>",
      headers: { "content-type": "application/xml" },
    });
    expect(invalidXml.status).toBe(422);
    expect(await invalidXml.text()).toContain(
      '<error field="title">Title can not be blank.</error>',
    );
  });

  it("Create: a form post without the CSRF token is refused with 403", async () => {
    const { browser } = clients(app);
    const res = await browser.post("/widgets", { form: { title: "Sneaky" }, csrf: false });
    expect(res.status).toBe(403);
  });

  it("New: an empty form posting to /widgets (HTML only; 406 for a JSON-only client)", async () => {
    const { browser, json } = clients(app);
    const html = await (await browser.get("/widgets/new")).text();
    expect(html).toContain("<h1>New Widget</h1>");
    expect(html).toMatch(
      /<form[^>]*action="\/widgets"[^>]*method="post"|<form[^>]*method="post"[^>]*action="\/widgets"/i,
    );
    expect(html).toContain('name="authenticity_token"');
    expect(html).toMatch(/<textarea[^>]*rows="10"/);
    expect((await json.get("/widgets/new")).status).toBe(406);
  });

  it("Edit: the form filled with the widget, sending PUT; 404 when missing", async () => {
    const widget = await createWidget("Editable", "Before");
    const { browser } = clients(app);
    const html = await (await browser.get(`/widgets/${widget.id}/edit`)).text();
    expect(html).toContain("<h1>Edit Widget</h1>");
    expect(html).toContain('value="Editable"');
    expect(html).toMatch(/name="_method" value="PUT"|value="PUT"[^>]*name="_method"/);
    expect((await browser.get("/widgets/0190f5a2-7b1c-7cde-8f00-1234567890ab/edit")).status).toBe(
      404,
    );
  });

  it("Update: 303 with the flash (HTML), 200 with the record (JSON), 422 with errors, 404 when missing", async () => {
    const widget = await createWidget("Old title");
    const { browser, json } = clients(app);
    const res = await browser.post(`/widgets/${widget.id}`, {
      form: { _method: "PUT", title: "New title" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/widgets/${widget.id}`);
    expect(await (await browser.get(`/widgets/${widget.id}`)).text()).toContain(
      "Widget was successfully updated.",
    );

    const updated = await json.put(`/widgets/${widget.id}`, { json: { title: "JSON title" } });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ id: widget.id, title: "JSON title" });

    const invalid = await browser.post(`/widgets/${widget.id}`, {
      form: { _method: "PUT", title: "" },
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain("<h1>Edit Widget</h1>");
    expect(
      (await json.put("/widgets/0190f5a2-7b1c-7cde-8f00-1234567890ab", { json: { title: "x" } }))
        .status,
    ).toBe(404);
  });

  it("Destroy: 303 to the list with the flash (HTML), 200 with the deleted record (JSON), then 404", async () => {
    const a = await createWidget("Doomed A");
    const b = await createWidget("Doomed B");
    const { browser, json } = clients(app);
    const res = await browser.post(`/widgets/${a.id}`, { form: { _method: "DELETE" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/widgets");
    expect(await (await browser.get("/widgets")).text()).toContain(
      "Widget was successfully destroyed.",
    );

    const deleted = await json.delete(`/widgets/${b.id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ id: b.id, title: "Doomed B" });
    expect((await json.get(`/widgets/${b.id}`)).status).toBe(404);
    expect((await json.delete(`/widgets/${b.id}`)).status).toBe(404);
  });

  it("List: the HTML paginator links pages, keeps per_page, marks the current page", async () => {
    const { browser } = clients(app);
    const html = await (await browser.get("/widgets?page=2&per_page=5")).text();
    expect(html).toMatch(/<nav[^>]*class="pagination"|class="pagination"/);
    expect(html).toContain('href="/widgets?page=1&amp;per_page=5"');
    expect(html).toContain('href="/widgets?page=3&amp;per_page=5"');
    expect(html).toMatch(/href="\/widgets\?page=2&amp;per_page=5" aria-current="page">2</);
    expect(html).toMatch(/href="\/widgets\?page=3&amp;per_page=5" aria-label="Next page"/);
    const beyond = await browser.get("/widgets?page=999");
    expect(beyond.status).toBe(200);
    expect(await beyond.text()).not.toContain("<td>");
  });

  it("Update and Destroy in XML: the record back, 422 with the errors, 404 when missing", async () => {
    const widget = await createWidget("XML before", "kept");
    const { xml } = clients(app);
    const updated = await xml.put(`/widgets/${widget.id}`, {
      body: "<widget><title>XML after</title></widget>",
      headers: { "content-type": "application/xml" },
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("content-type")).toContain("application/xml");
    const doc = await updated.text();
    expect(doc).toContain("<title>XML after</title>");
    expect(doc).toContain(`<id>${widget.id}</id>`);

    const invalid = await xml.put(`/widgets/${widget.id}`, {
      body: "<widget><title></title></widget>",
      headers: { "content-type": "application/xml" },
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain('<error field="title">Title can not be blank.</error>');

    const destroyed = await xml.delete(`/widgets/${widget.id}`);
    expect(destroyed.status).toBe(200);
    expect(await destroyed.text()).toContain("<title>XML after</title>");
    const gone = await xml.get(`/widgets/${widget.id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).toContain("application/xml");
  });

  it("Update: 422 re-renders the edit form with what was entered, not what is stored", async () => {
    const widget = await createWidget("Stored title", "Stored description");
    const { browser } = clients(app);
    const res = await browser.post(`/widgets/${widget.id}`, {
      form: { _method: "PUT", title: "", description: "Entered description" },
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("Title can not be blank.");
    expect(html).toContain("Entered description");
    expect(html).not.toContain("Stored description");
    expect(html).toMatch(/<input[^>]*name="title"[^>]*aria-invalid="true"/);
    const stored = (await (await clients(app).json.get(`/widgets/${widget.id}`)).json()) as {
      title: string;
    };
    expect(stored.title).toBe("Stored title");
  });

  it("Flash: shown on the next page only, once", async () => {
    const { browser } = clients(app);
    const res = await browser.post("/widgets", { form: { title: "Flash once" } });
    expect(await browser.flash()).toEqual({ success: ["Widget was successfully created."] });
    const first = await (await browser.follow(res)).text();
    expect(first).toMatch(/class="alert alert-success"[^>]*>\s*Widget was successfully created\./);
    const again = await (await browser.get(res.headers.get("location") ?? "/")).text();
    expect(again).not.toContain("Widget was successfully created.");
  });

  it("Session: the cookie is _shop_session, HttpOnly, SameSite=Lax, for the whole site", async () => {
    const { browser } = clients(app);
    expect(browser.sessionCookieName).toBe("_shop_session");
    const res = await browser.get("/widgets/new");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^_shop_session=[^;]+/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/; Secure/i);
  });

  it("CSRF: a forged token, a token from another session, and a cross-site JSON post are refused", async () => {
    const { browser } = clients(app);
    await browser.get("/widgets/new");
    const forged = await browser.post("/widgets", {
      form: { title: "Forged", authenticity_token: "not-the-token" },
      csrf: false,
    });
    expect(forged.status).toBe(403);

    const other = clients(app).browser;
    const othersToken = await other.csrfToken();
    const stolen = await browser.post("/widgets", {
      form: { title: "Stolen", authenticity_token: othersToken },
      csrf: false,
    });
    expect(stolen.status).toBe(403);

    const crossSite = await clients(app).json.post("/widgets", {
      json: { title: "Cross" },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const titles = (
      (await (await clients(app).json.get("/widgets?per_page=100")).json()) as { title: string }[]
    ).map((w) => w.title);
    expect(titles).not.toContain("Forged");
    expect(titles).not.toContain("Stolen");
    expect(titles).not.toContain("Cross");
  });
});
