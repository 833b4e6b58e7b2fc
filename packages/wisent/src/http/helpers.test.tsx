/** @jsxRuntime classic */
/** @jsx h */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { WisentRuntime } from "../app/runtime.js";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import "./bind.js";
import { bodyLimit } from "./body.js";
import { ButtonTo, CsrfField, CsrfMeta, FlashMessages } from "./components.js";
import { errorResponse } from "./error-response.js";
import { silentLogger } from "./logger.js";
import { addPageHooks, usePage } from "./page.js";
import "./redirect.js";
import { type Layout, layout } from "./respond.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

const widgetPath = (params?: Record<string, unknown>) => `/widgets/${params?.widget_id}`;
const runtime: WisentRuntime = {
  name: "shop",
  env: "test",
  api: false,
  pathFor: (name, params) => {
    if (name === "widgetPath") return widgetPath(params);
    throw new Error(`path name not found: ${name}`);
  },
  paths: { widgetPath },
  routes: () => [],
  handlerFor: () => undefined,
};

function app() {
  const hono = new Hono();
  hono.onError(errorResponse);
  hono.use("*", async (c, next) => {
    c.set("wisent", runtime);
    c.set("logger", silentLogger);
    await next();
  });
  return hono;
}

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("c.bind", () => {
  const binder = app();
  binder.post("/bind", async (c) => c.json(await c.bind()));
  binder.get("/bind", async (c) => c.json(await c.bind()));
  binder.post("/small/*", bodyLimit(10));
  binder.post("/small/bind", async (c) => c.json(await c.bind()));
  binder.post("/schema", async (c) =>
    c.json(await c.bind(z.object({ title: z.string().trim().min(1), count: z.coerce.number() }))),
  );

  it("binds urlencoded forms, repeated keys and key[] as arrays, without framework fields", async () => {
    const res = await binder.request("/bind", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "title=a+b&tag=x&tag=y&ids[]=1&_method=PUT&authenticity_token=t",
    });
    expect(await res.json()).toEqual({ title: "a b", tag: ["x", "y"], ids: ["1"] });
  });

  it("binds bracketed names as objects and arrays in forms, multipart bodies and queries", async () => {
    const res = await binder.request("/bind", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "widget[title]=Gear&widget[tags][]=a&widget[tags][]=b&items[0][n]=1&items[1][n]=2",
    });
    const expected = {
      widget: { title: "Gear", tags: ["a", "b"] },
      items: [{ n: "1" }, { n: "2" }],
    };
    expect(await res.json()).toEqual(expected);
    const form = new FormData();
    form.append("widget[title]", "Gear");
    form.append("widget[tags][]", "a");
    form.append("widget[tags][]", "b");
    form.append("items[0][n]", "1");
    form.append("items[1][n]", "2");
    expect(await (await binder.request("/bind", { method: "POST", body: form })).json()).toEqual(
      expected,
    );
    const query = await binder.request(
      "/bind?widget[title]=Gear&widget[tags][]=a&widget[tags][]=b&items[0][n]=1&items[1][n]=2",
    );
    expect(await query.json()).toEqual(expected);
  });

  it("answers 400 naming the parameter for prototype keys and names nested too deep", async () => {
    const proto = await binder.request("/bind?a[__proto__][admin]=1", {
      headers: { accept: "application/json" },
    });
    expect(proto.status).toBe(400);
    expect(((await proto.json()) as { error: string }).error).toBe(
      'parameter "a[__proto__][admin]" uses the reserved name "__proto__"',
    );
    const deep = await binder.request("/bind", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: `a${"[b]".repeat(11)}=1`,
    });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: string }).error).toBe(
      `parameter "a${"[b]".repeat(11)}" is nested 11 levels deep; the limit is 10`,
    );
  });

  it("binds multipart forms", async () => {
    const form = new FormData();
    form.set("title", "multi");
    const res = await binder.request("/bind", { method: "POST", body: form });
    expect(await res.json()).toEqual({ title: "multi" });
  });

  it("binds JSON and XML bodies", async () => {
    expect(await (await binder.request("/bind", json({ title: "j", n: 2 }))).json()).toEqual({
      title: "j",
      n: 2,
    });
    const xml = await binder.request("/bind", {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body: "<widget><title>x</title></widget>",
    });
    expect(await xml.json()).toEqual({ title: "x" });
  });

  it("binds the query string on GET", async () => {
    expect(await (await binder.request("/bind?q=abc")).json()).toEqual({ q: "abc" });
  });

  it("binds an empty body as an empty object", async () => {
    const res = await binder.request("/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(await res.json()).toEqual({});
  });

  it.each([
    ["malformed JSON", json("{nope"), 400, /^malformed JSON body: /],
    ["a JSON array", json("[1]"), 400, /^JSON body must be an object$/],
    [
      "malformed XML",
      {
        method: "POST",
        headers: { "content-type": "text/xml", accept: "application/json" },
        body: "<a><b></a>",
      },
      400,
      /^malformed XML body \(line 1\)/,
    ],
    [
      "malformed multipart",
      {
        method: "POST",
        headers: {
          "content-type": "multipart/form-data; boundary=zzz",
          accept: "application/json",
        },
        body: "not multipart at all",
      },
      400,
      /^malformed multipart body/,
    ],
    [
      "an unknown content type",
      {
        method: "POST",
        headers: { "content-type": "text/plain", accept: "application/json" },
        body: "hi",
      },
      415,
      /^unsupported Content-Type "text\/plain"/,
    ],
    [
      "a body without a content type",
      { method: "POST", headers: { accept: "application/json" }, body: new Uint8Array([1, 2, 3]) },
      415,
      /no Content-Type/,
    ],
  ])("answers %s with the right status and message", async (_name, init, status, message) => {
    const res = await binder.request("/bind", init as RequestInit);
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);
  });

  it("refuses a body over the limit with 413, by Content-Length or by streaming", async () => {
    const declared = await binder.request("/small/bind", json({ title: "much too long" }));
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toBe("request body is larger than the limit of 10 bytes");
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title":'));
        controller.enqueue(new TextEncoder().encode('"streamed past the limit"}'));
        controller.close();
      },
    });
    const streamed = await binder.request("/small/bind", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("validates with a zod schema: parsed data, or 422 with Buffalo-style errors", async () => {
    const ok = await binder.request("/schema", json({ title: " t ", count: "3" }));
    expect(await ok.json()).toEqual({ title: "t", count: 3 });
    const bad = await binder.request("/schema", json({ title: "", count: 1 }));
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ errors: { title: ["Title can not be blank."] } });
  });
});

describe("c.respond", () => {
  const AppLayout: Layout = ({ page, children }) => (
    <html lang={page.lang}>
      <head>
        <CsrfMeta />
      </head>
      <body>
        <FlashMessages />
        {children}
      </body>
    </html>
  );
  const Title = () => <h1>{usePage().t("title")}</h1>;
  const responder = app();
  responder.use(layout(AppLayout));
  responder.use("*", async (c, next) => {
    addPageHooks(c, {
      readFlash: () => ({ success: ["Saved <ok>"] }),
      csrfToken: () => "tok",
      lang: () => "de",
      t: (_c, key) => `T(${key})`,
    });
    await next();
  });
  responder.get("/widgets/:widget_id", (c) =>
    c.respond(200, {
      html: () => (
        <form>
          <CsrfField />
          <Title />
        </form>
      ),
      json: { id: 1, description: null },
      xml: { id: 1, description: null },
    }),
  );
  responder.get("/widgets", (c) => c.respond(200, { json: [{ id: 1 }], xml: [{ id: 1 }] }));
  responder.get("/buttons", (c) =>
    c.respond(200, {
      html: () => (
        <div>
          <ButtonTo action="/widgets/1" method="DELETE" confirm="Sure?">
            Destroy
          </ButtonTo>
          <ButtonTo action="/widgets/1/publish">Publish</ButtonTo>
        </div>
      ),
    }),
  );
  responder.get("/widgets/:widget_id/edit", (c) => c.respond(200, { html: () => <p>edit</p> }));
  responder.post("/widgets", (c) =>
    c.respond(201, {
      json: { id: 7 },
      xml: { id: 7 },
      location: ["widgetPath", { widget_id: 7 }],
    }),
  );
  responder.post("/widgets/by-path", (c) =>
    c.respond(201, { json: { id: 8 }, location: "/widgets/8" }),
  );

  it("renders HTML inside the layout with flash, CSRF meta, lang and the form field", async () => {
    const res = await responder.request("/widgets/1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(
      '<meta name="csrf-param" content="authenticity_token"/><meta name="csrf-token" content="tok"/>',
    );
    expect(page).toContain(
      '<div class="alert alert-success" role="alert" data-flash="success">Saved &lt;ok&gt;</div>',
    );
    expect(page).toContain(
      '<form><input type="hidden" name="authenticity_token" value="tok"/><h1>T(title)</h1></form>',
    );
  });

  it("renders ButtonTo as a form that works without JavaScript: _method unless POST, the token, the confirm", async () => {
    const page = await (await responder.request("/buttons")).text();
    expect(page).toContain(
      '<form class="button-to" method="post" action="/widgets/1"><input type="hidden" name="_method" value="DELETE"/><input type="hidden" name="authenticity_token" value="tok"/><button type="submit" class="link" data-confirm="Sure?">Destroy</button></form>',
    );
    expect(page).toContain(
      '<form class="button-to" method="post" action="/widgets/1/publish"><input type="hidden" name="authenticity_token" value="tok"/><button type="submit" class="link">Publish</button></form>',
    );
  });

  it("writes ButtonTo's markup as the same form in JSX renders, escaping action, confirm and label", async () => {
    const action = '/widgets/1?x=1&y="2"';
    const confirm = `It's <really> "sure"?`;
    const spelled = app();
    spelled.use("*", async (c, next) => {
      addPageHooks(c, { csrfToken: () => "t&k" });
      await next();
    });
    spelled.get("/both", (c) =>
      c.respond(200, {
        html: () => (
          <div>
            <ButtonTo action={action} method="PATCH" confirm={confirm}>
              Mark <b>done</b> & go
            </ButtonTo>
            <hr />
            <form class="button-to" method="post" action={action}>
              <input type="hidden" name="_method" value="PATCH" />
              <CsrfField />
              <button type="submit" class="link" data-confirm={confirm}>
                Mark <b>done</b> & go
              </button>
            </form>
          </div>
        ),
      }),
    );
    const page = await (await spelled.request("/both")).text();
    const [written, inJsx] = page
      .slice(page.indexOf("<div>") + 5, page.indexOf("</div>"))
      .split("<hr/>");
    expect(written).toContain('action="/widgets/1?x=1&amp;y=&quot;2&quot;"');
    expect(written).toContain('data-confirm="It&#39;s &lt;really&gt; &quot;sure&quot;?"');
    expect(written).toBe(inJsx);
  });

  it("gives each page's forms that page's own CSRF token", async () => {
    const tokens = app();
    tokens.use("*", async (c, next) => {
      addPageHooks(c, { csrfToken: (ctx) => ctx.req.query("token") ?? "" });
      await next();
    });
    tokens.get("/forms", (c) =>
      c.respond(200, {
        html: () => (
          <div>
            <CsrfField />
            <ButtonTo action="/widgets/1" method="DELETE">
              Destroy
            </ButtonTo>
          </div>
        ),
      }),
    );
    for (const token of ["first", "second", "first"]) {
      const page = await (await tokens.request(`/forms?token=${token}`)).text();
      const fields = page.match(/name="authenticity_token" value="[^"]*"/g);
      expect(fields).toEqual(Array(2).fill(`name="authenticity_token" value="${token}"`));
    }
  });

  it("renders JSON and XML (root from the route, list wrapped)", async () => {
    const one = await responder.request("/widgets/1", { headers: { accept: "application/json" } });
    expect(await one.json()).toEqual({ id: 1, description: null });
    const xml = await responder.request("/widgets/1", { headers: { accept: "application/xml" } });
    expect(await xml.text()).toContain(
      '<widget>\n  <id>1</id>\n  <description nil="true"/>\n</widget>',
    );
    const list = await responder.request("/widgets?format=xml");
    expect(await list.text()).toContain("<widgets>\n  <widget>");
  });

  it.each([
    ["/widgets", "application/json", "/widgets/7"],
    ["/widgets", "application/xml", "/widgets/7"],
    ["/widgets/by-path", "application/json", "/widgets/8"],
  ])("sends a 201's Location (POST %s, %s)", async (path, accept, location) => {
    const res = await responder.request(path, { method: "POST", headers: { accept } });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(location);
  });

  it("answers 406 when the format is not offered (Edit asked for JSON)", async () => {
    const res = await responder.request("/widgets/1/edit", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      error:
        "not acceptable: Accept: application/json accepts none of the formats this action answers (html)",
      code: 406,
      error_code: "E_HTTP",
    });
  });
});

describe("c.redirectTo", () => {
  const redirector = app();
  redirector.get("/named", (c) => c.redirectTo(303, "widgetPath", { widget_id: 7 }));
  redirector.get("/path", (c) => c.redirectTo(302, "/widgets"));
  redirector.get("/unknown", (c) => c.redirectTo(303, "nopePath"));
  redirector.get("/bad-status", (c) => c.redirectTo(200 as 303, "/x"));

  it("resolves route names and passes paths through", async () => {
    const named = await redirector.request("/named");
    expect([named.status, named.headers.get("location")]).toEqual([303, "/widgets/7"]);
    const path = await redirector.request("/path");
    expect([path.status, path.headers.get("location")]).toEqual([302, "/widgets"]);
  });

  it("fails loudly on unknown names and non-redirect statuses", async () => {
    const unknown = await redirector.request("/unknown", {
      headers: { accept: "application/json" },
    });
    expect(unknown.status).toBe(500);
    const bad = await redirector.request("/bad-status");
    expect(bad.status).toBe(500);
  });
});

describe("c.bind when the client's body stream breaks", () => {
  it("answers 400 naming the problem instead of 500", async () => {
    const binder = app();
    binder.post("/bind", async (c) => c.json(await c.bind()));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title":'));
        controller.error(new Error("aborted"));
      },
    });
    const res = await binder.request("/bind", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "request body could not be read: aborted" });
  });
});
