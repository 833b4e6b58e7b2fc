import { Context } from "hono";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { HttpError } from "../base/http-error.js";
import { silentLogger } from "../http/logger.js";
import { forceSSL } from "../middleware/force-ssl/force-ssl.js";
import { paramLogger } from "../middleware/param-logger/param-logger.js";
import { securityHeaders } from "../middleware/security-headers/security-headers.js";
import { Resource } from "../resources/resource.js";
import { phased } from "./compose.js";
import "../http/respond.js";
import {
  answersPlain,
  hasAllResponseHeaders,
  markComplete,
  plainResponseHeaders,
  setHeaders,
  trackHonoHeaders,
} from "./response-headers.js";

const widget = { id: "1", title: "Hammer" };

class WidgetsResource extends Resource {
  override list(c: Parameters<NonNullable<Resource["list"]>>[0]) {
    if (c.req.query("custom")) c.header("X-Custom", "yes");
    if (c.req.query("redirect")) return c.redirect("/widgets/1", 303);
    if (c.req.query("own")) return Response.redirect("http://localhost/widgets/1", 302);
    if (c.req.query("missing")) throw new HttpError(404, "widget not found: 9");
    if (c.req.query("page")) {
      return c.respond(200, {
        html: () => "Hammer & tongs",
        json: [widget],
        headers: { "X-Total-Count": "1" },
      });
    }
    if (c.req.query("paged")) {
      return c.respond(200, {
        json: [widget],
        xml: [widget],
        headers: { "X-Total-Count": "1", Link: '</widgets?page=1>; rel="first"' },
      });
    }
    return c.respond(200, { json: [widget], xml: [widget] });
  }
}

/**
 * An app with the headers middleware, a probe of the fast path, and an after-step that may fail;
 * `production` adds force-SSL (and so HSTS) as a production app has it.
 */
function app({ production = false } = {}) {
  const seen: boolean[] = [];
  const a = new App({ name: "shop", api: true });
  a.use(securityHeaders());
  if (production) a.use(forceSSL({ enabled: true }));
  a.use(paramLogger({ logger: silentLogger }));
  a.use(
    phased({
      after(c) {
        seen.push(hasAllResponseHeaders(c));
        if (c.req.query("fail-after")) throw new Error("commit failed");
      },
    }),
  );
  a.resource("/widgets", new WidgetsResource());
  return { app: a, seen };
}

const get = (a: App, query = "", accept = "application/json") =>
  a.fetch(new Request(`https://localhost/widgets${query}`, { headers: { accept } }));

/** A page's full set; a JSON or XML answer, however it was made, the data set and its CSP. */
function expectWisentHeaders(res: Response) {
  const data = /json|xml/.test(res.headers.get("content-type") ?? "");
  expect(res.headers.get("content-security-policy")).toContain(
    data ? "default-src 'none'" : "default-src 'self'",
  );
  expectDataHeaders(res);
}

/** The headers every answer carries, JSON and XML from c.respond included. */
function expectDataHeaders(res: Response) {
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
}

describe("response headers of Wisent's middleware", () => {
  it("come in one plain object on a response c.respond makes (JSON and XML)", async () => {
    const { app: a, seen } = app();
    const json = await get(a);
    expect(json.headers.get("content-type")).toBe("application/json");
    expectDataHeaders(json);
    expect(await json.json()).toEqual([widget]);
    const xml = await get(a, "", "application/xml");
    expect(xml.headers.get("content-type")).toBe("application/xml; charset=UTF-8");
    expectDataHeaders(xml);
    // Only the headers that mean something for data: no page policies.
    for (const res of [json, xml]) {
      expect(res.headers.get("content-security-policy")).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(res.headers.get("referrer-policy")).toBeNull();
      expect(res.headers.get("cross-origin-opener-policy")).toBeNull();
      expect(res.headers.get("x-xss-protection")).toBeNull();
    }
    expect(seen).toEqual([true, true]);
  });

  it("come in one plain object on an HTML page c.respond renders, with its own headers", async () => {
    const { app: a, seen } = app();
    const res = await get(a, "?page=1", "text/html");
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("x-total-count")).toBe("1");
    expectWisentHeaders(res);
    expect(await res.text()).toBe("Hammer &amp; tongs");
    // A header set through Hono before answering: Hono builds the page, the headers still come.
    const custom = await get(a, "?page=1&custom=1", "text/html");
    expect(custom.headers.get("x-custom")).toBe("yes");
    expect(custom.headers.get("x-total-count")).toBe("1");
    expectWisentHeaders(custom);
    expect(seen).toEqual([true, false]);
  });

  it("come with c.respond's own headers (pagination) on the same plain path", async () => {
    const { app: a, seen } = app();
    for (const accept of ["application/json", "application/xml"]) {
      const res = await get(a, "?paged=1", accept);
      expect(res.headers.get("x-total-count")).toBe("1");
      expect(res.headers.get("link")).toBe('</widgets?page=1>; rel="first"');
      expectDataHeaders(res);
    }
    expect(seen).toEqual([true, true]);
  });

  it("are added after the fact when the handler set headers through Hono", async () => {
    const { app: a, seen } = app();
    const res = await get(a, "?custom=1");
    expect(res.headers.get("x-custom")).toBe("yes");
    expect(res.headers.get("content-type")).toBe("application/json");
    expectWisentHeaders(res);
    expect(seen).toEqual([false]);
  });

  it.each([
    ["a redirect", "?redirect=1", 303],
    ["a handler's own immutable Response", "?own=1", 302],
    ["an error response", "?missing=1", 404],
    ["an error raised after the response was made", "?fail-after=1", 500],
  ])("reach %s", async (_name, query, status) => {
    const { app: a } = app();
    const res = await get(a, query);
    expect(res.status).toBe(status);
    expectWisentHeaders(res);
  });

  it("take force-SSL's HSTS into the same plain object, JSON keeping its data set (production)", async () => {
    const { app: a, seen } = app({ production: true });
    const hsts = "max-age=63072000; includeSubDomains";
    for (const [query, accept] of [
      ["", "application/json"],
      ["?paged=1", "application/xml"],
      ["?page=1", "text/html"],
    ] as const) {
      const res = await get(a, query, accept);
      expect(res.headers.get("strict-transport-security")).toBe(hsts);
      expect(res.headers.get("content-security-policy")).toContain(
        accept === "text/html" ? "default-src 'self'" : "default-src 'none'",
      );
      expect(res.headers.get("referrer-policy") === null).toBe(accept !== "text/html");
    }
    // Every answer made with every part: no copy of the Response to add a header afterwards.
    expect(seen).toEqual([true, true, true]);
    for (const query of ["?redirect=1", "?own=1", "?missing=1", "?custom=1"]) {
      expect((await get(a, query)).headers.get("strict-transport-security")).toBe(hsts);
    }
  });

  it("keep the incoming request id", async () => {
    const { app: a } = app();
    const res = await a.fetch(
      new Request("http://localhost/widgets", {
        headers: { accept: "application/json", "x-request-id": "req-42" },
      }),
    );
    expect(res.headers.get("x-request-id")).toBe("req-42");
  });
});

describe("a request's header state", () => {
  const context = () => new Context(new Request("http://localhost/"));

  it("keeps every part in the order added (two and more), then the content type's and extra's", () => {
    const c = context();
    trackHonoHeaders(c);
    setHeaders(c, { "x-a": "1", "x-shared": "a" });
    setHeaders(c, { "x-b": "2" });
    setHeaders(c, { "x-c": "3", "x-shared": "c" });
    setHeaders(c, { "x-d": "4" });
    const headers = plainResponseHeaders(c, "application/json", {
      "X-Shared": "extra",
      Link: "<1>",
    });
    expect(Object.entries(headers!)).toEqual([
      ["content-type", "application/json"],
      ["x-a", "1"],
      ["x-shared", "extra"],
      ["x-b", "2"],
      ["x-c", "3"],
      ["x-d", "4"],
      ["link", "<1>"],
    ]);
  });

  it("answers plain only once tracking is on, and not after a header set through Hono", () => {
    const c = context();
    setHeaders(c, { "x-a": "1" });
    expect(answersPlain(c)).toBe(false);
    expect(plainResponseHeaders(c, "text/plain")).toBeUndefined();
    trackHonoHeaders(c);
    trackHonoHeaders(c);
    expect(plainResponseHeaders(c, "text/plain")).toEqual({
      "content-type": "text/plain",
      "x-a": "1",
    });
    c.header("X-Custom", "yes");
    expect(answersPlain(c)).toBe(false);
    expect(c.res.headers.get("x-custom")).toBe("yes");
  });

  it("knows the response made with every part until another takes its place", () => {
    const c = context();
    trackHonoHeaders(c);
    expect(hasAllResponseHeaders(c)).toBe(false);
    const res = markComplete(c, new Response("x"));
    c.res = res;
    expect(hasAllResponseHeaders(c)).toBe(true);
    c.res = new Response("other");
    expect(hasAllResponseHeaders(c)).toBe(false);
  });
});
