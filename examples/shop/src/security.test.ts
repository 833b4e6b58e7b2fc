/**
 * The shop's security defaults, table by table (docs/security.md in Wisent): each row an attack
 * or a protection, against the app as generated, in-process. The production-only rows are in
 * security-production.test.ts.
 */
import { createHash } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseXml } from "wisent";
import { testClient } from "wisent/testing";
import { freshApp, type ShopApp } from "../test/support.js";

let app: ShopApp;
let db: Awaited<ReturnType<typeof freshApp>>["db"];
beforeAll(async () => {
  ({ app, db } = await freshApp());
});

const send = (path: string, init: RequestInit = {}) =>
  app.fetch(new Request(`http://localhost${path}`, init));

async function widgetCount(): Promise<number> {
  const row = await db.kysely
    .selectFrom("widgets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function createWidget(title = "Hammer"): Promise<{ id: string }> {
  const res = await testClient(app).post("/widgets", {
    json: { title },
    headers: { accept: "application/json" },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

describe("sessions cannot be forged", () => {
  it("refuses a cookie and CSRF token forged with the old guessable secret (sha256 of the app's name)", async () => {
    const guessable = createHash("sha256")
      .update("wisent development session secret for shop")
      .digest("hex");
    // The attack of issue 22: a session sealed with the computable secret, holding a CSRF
    // secret, and a token made for it.
    const forger = testClient(app, { sessionSecret: guessable });
    const token = await forger.csrfToken();
    const res = await forger.post("/widgets", {
      form: { title: "forged", authenticity_token: token },
    });
    expect(res.status).toBe(403);
  });

  it("sets a browser-session cookie: HttpOnly, SameSite=Lax, no Max-Age", async () => {
    const res = await send("/widgets/new");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^_shop_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Max-Age|Expires/i);
  });
});

describe("Cache-Control on every dynamic answer", () => {
  it.each([
    ["an HTML page (CSRF token in its head)", "/widgets", "text/html", "no-store"],
    ["a form page (token and new session cookie)", "/widgets/new", "text/html", "no-store"],
    ["a JSON list", "/widgets", "application/json", "private, no-cache"],
    ["an XML list", "/widgets.xml", "*/*", "private, no-cache"],
    ["a JSON 404", "/nothing.json", "*/*", "private, no-cache"],
    ["a static asset", "/assets/application.css", "*/*", "max-age=31536000"],
  ])("%s: %s", async (_name, path, accept, expected) => {
    const res = await send(path, { headers: { accept } });
    expect(res.headers.get("cache-control")).toBe(expected);
  });

  it("a form create's 303 (it writes the session's flash): no-store", async () => {
    const browser = testClient(app);
    const res = await browser.post("/widgets", { form: { title: "Cached?" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("CSRF", () => {
  async function browserWithSession() {
    const browser = testClient(app);
    await browser.get("/widgets/new");
    return browser;
  }

  it.each([
    ["a form post without a token", { form: { title: "x" }, csrf: false }, 403],
    [
      "a form post from another origin, with a valid token",
      { form: { title: "x" }, headers: { origin: "http://evil.example" } },
      403,
    ],
    [
      "a form post whose Origin differs only in scheme",
      { form: { title: "x" }, headers: { origin: "https://localhost" } },
      403,
    ],
    [
      "a form post whose Origin differs only in port",
      { form: { title: "x" }, headers: { origin: "http://localhost:8080" } },
      403,
    ],
    ["a form post with Origin: null", { form: { title: "x" }, headers: { origin: "null" } }, 403],
    [
      "a form post with a valid token from the same origin",
      { form: { title: "x" }, headers: { origin: "http://localhost" } },
      303,
    ],
    [
      "JSON with the session cookie, no token, no origin",
      { json: { title: "x" }, csrf: false, headers: { accept: "application/json" } },
      403,
    ],
    [
      "+json with the session cookie, no token",
      {
        body: '{"title":"x"}',
        csrf: false,
        headers: { "content-type": "application/vnd.api+json", accept: "application/json" },
      },
      403,
    ],
    [
      "XML with the session cookie, no token",
      {
        body: "<widget><title>x</title></widget>",
        csrf: false,
        headers: { "content-type": "application/xml", accept: "application/json" },
      },
      403,
    ],
    [
      "JSON with the session cookie and Sec-Fetch-Site: cross-site",
      {
        json: { title: "x" },
        headers: { accept: "application/json", "sec-fetch-site": "cross-site" },
      },
      403,
    ],
    [
      "JSON with the session cookie and the X-CSRF-Token header",
      { json: { title: "x" }, headers: { accept: "application/json" } },
      201,
    ],
    [
      "JSON with the session cookie and Sec-Fetch-Site: same-origin",
      {
        json: { title: "x" },
        csrf: false,
        headers: { accept: "application/json", "sec-fetch-site": "same-origin" },
      },
      201,
    ],
    [
      "JSON with the session cookie and the app's Origin",
      {
        json: { title: "x" },
        csrf: false,
        headers: { accept: "application/json", origin: "http://localhost" },
      },
      201,
    ],
  ] as const)("%s", async (_name, options, status) => {
    const browser = await browserWithSession();
    const res = await browser.post("/widgets", options as never);
    expect(res.status).toBe(status);
  });

  it("JSON without a session cookie (a script, an API client) is no forgery target: 201", async () => {
    const res = await send("/widgets", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: '{"title":"script"}',
    });
    expect(res.status).toBe(201);
  });

  it("method override cannot be reached from GET", async () => {
    const widget = await createWidget();
    const res = await send(`/widgets/${widget.id}?_method=DELETE`);
    expect(res.status).toBe(200);
    expect((await send(`/widgets/${widget.id}.json`)).status).toBe(200);
  });
});

describe("static files", () => {
  const publicDir = fileURLToPath(new URL("../public/", import.meta.url));
  const dotfile = `.security-test-${process.pid}`;
  beforeAll(() => writeFileSync(`${publicDir}${dotfile}`, "SECRET-IN-DOTFILE"));
  afterAll(() => rmSync(`${publicDir}${dotfile}`, { force: true }));

  it.each([`/${dotfile}`, "/.env", "/.git/config", "/%2e%2e/package.json", "/../.env.example"])(
    "%s is never served",
    async (path) => {
      const res = await send(path);
      expect([400, 404]).toContain(res.status);
      expect(await res.text()).not.toContain("SECRET-IN-DOTFILE");
    },
  );
});

describe("stored text is well-formed", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["SOH", "\u0001"],
    ["escape", "\u001b[2J"],
    ["a lone surrogate", "\ud800"],
  ])("a title holding %s is refused with 422 naming the field", async (_name, title) => {
    const before = await widgetCount();
    const res = await send("/widgets", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ title }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      errors: { title: ["Title must not contain control characters or unpaired surrogates."] },
    });
    expect(await widgetCount()).toBe(before);
  });

  it("the XML list stays well-formed", async () => {
    await createWidget('tab\tand <markup> & "quotes"');
    const body = await (await send("/widgets.xml?per_page=100")).text();
    expect(body).toMatch(/^<\?xml/);
    expect(() => parseXml(body)).not.toThrow();
  });
});

describe("format negotiation as caches expect", () => {
  it.each([
    ["/widgets", "application/json"],
    ["/widgets", "text/html"],
  ])("GET %s (Accept: %s) says Vary: Accept", async (path, accept) => {
    expect((await send(path, { headers: { accept } })).headers.get("vary")).toBe("Accept");
  });

  it.each([
    ["/widgets", "*/*;q=0", 406],
    ["/widgets/new", "text/html;q=0", 406],
    // RFC 9110: a type Accept leaves out is not acceptable either.
    ["/widgets", "text/html;q=0", 406],
    ["/widgets", "text/html;q=0, */*", 200],
    ["/widgets", "text/plain", 406],
    ["/widgets.txt", "text/html", 406],
  ])("GET %s with Accept %s answers %i", async (path, accept, status) => {
    expect((await send(path, { headers: { accept } })).status).toBe(status);
  });

  it("the Link header keeps the format extension and never copies a bad Host", async () => {
    await createWidget();
    await createWidget();
    await createWidget();
    const res = await app.fetch(new Request("https://localhost/widgets.json?per_page=2"));
    expect(res.headers.get("link")).toMatch(
      /^<https:\/\/localhost\/widgets\.json\?per_page=2&page=1>; rel="first", <https:\/\/localhost\/widgets\.json\?per_page=2&page=2>; rel="next"/,
    );
    const forged = await send("/widgets.json?per_page=2", { headers: { host: 'a"b' } });
    expect(forged.headers.get("link")).toMatch(/^<\/widgets\.json\?per_page=2&page=1>/);
  });
});

describe("a client that never follows redirects and keeps its cookie", () => {
  it("gets 200 answers of 303 for 200 HTML creates, and 200 rows", async () => {
    const browser = testClient(app);
    const before = await widgetCount();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await browser.post("/widgets", { form: { title: `Create ${i}` } });
      statuses.push(res.status);
      if (res.status !== 303) console.error(await res.text());
    }
    expect(statuses.filter((s) => s === 303)).toHaveLength(200);
    expect(await widgetCount()).toBe(before + 200);
    // The same flash message is kept once.
    expect(await browser.flash()).toEqual({ success: ["Widget was successfully created."] });
  });
});

describe("protections that already held", () => {
  it("escapes every XSS payload in pages", async () => {
    const widget = await createWidget('<script>alert("x")</script><img src=x onerror=alert(1)>');
    const html = await (await send(`/widgets/${widget.id}`)).text();
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;");
  });

  it("sends the security headers", async () => {
    const res = await send("/widgets");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("drops mass-assigned id and timestamps", async () => {
    const res = await send("/widgets", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        title: "Mass",
        id: "00000000-0000-7000-8000-000000000000",
        created_at: "2000-01-01T00:00:00Z",
      }),
    });
    const widget = (await res.json()) as { id: string; created_at: string };
    expect(widget.id).not.toBe("00000000-0000-7000-8000-000000000000");
    expect(widget.created_at).not.toMatch(/^2000/);
  });

  it("does not reach an image through another widget", async () => {
    const a = await createWidget("A");
    const b = await createWidget("B");
    const image = await testClient(app).post(`/widgets/${a.id}/images`, {
      json: { caption: "pic" },
      headers: { accept: "application/json" },
    });
    const { id } = (await image.json()) as { id: string };
    expect((await send(`/widgets/${b.id}/images/${id}.json`)).status).toBe(404);
    expect((await send(`/widgets/${a.id}/images/${id}.json`)).status).toBe(200);
  });
});
