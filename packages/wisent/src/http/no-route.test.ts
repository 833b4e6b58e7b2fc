import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { HttpError } from "../base/http-error.js";
import { type Database, openDatabase } from "../data/database.js";
import { csrf } from "../middleware/csrf/csrf.js";
import { flashMessages } from "../middleware/flash/flash.js";
import { paramLogger } from "../middleware/param-logger/param-logger.js";
import { securityHeaders } from "../middleware/security-headers/security-headers.js";
import { session } from "../middleware/session/session.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { Resource } from "../resources/resource.js";
import type { LogEntry, Logger } from "./logger.js";
import { noRouteMatched } from "./no-route.js";

class WidgetsResource extends Resource {
  override list(c: Context) {
    return c.json([]);
  }
  override show(c: Context) {
    return c.json({ id: c.req.param("widget_id") });
  }
  override create(c: Context) {
    return c.json({ created: true }, 201);
  }
}

let db: Database;
beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
});
afterAll(async () => {
  await db.close();
});

const SECRET = "no-route-secret-".padEnd(32, "x");

/** A web app with the generated app's stack; `withFiles` adds the static catch-all at `/`. */
function webApp(withFiles: boolean) {
  const lines: LogEntry[] = [];
  const logger: Logger = {
    info: (e) => lines.push(e),
    warn: (e) => lines.push(e),
    error: (e) => lines.push(e),
  };
  const app = new App({ name: "shop", env: "test" });
  app.use(securityHeaders());
  app.use(paramLogger({ logger }));
  app.use(session({ secret: SECRET }));
  app.use(flashMessages());
  app.use(csrf());
  app.use(transaction(db));
  app.get("/", (c) => c.text("home"));
  app.get("/token", (c) => c.text(c.csrfToken()));
  app.resource("/widgets", new WidgetsResource());
  if (withFiles) app.serveFiles("/", mkdtempSync(join(tmpdir(), "wisent-no-route-")));
  return { app, lines };
}

function send(app: App, method: string, path: string, init: RequestInit = {}) {
  const headers = { accept: "application/json", ...(init.headers as Record<string, string>) };
  return app.fetch(new Request(`http://localhost${path}`, { ...init, method, headers }));
}

/** What the app's middleware puts on every answer. */
function expectAppMiddlewareRan(res: Response, lines: LogEntry[], method: string, path: string) {
  // A page gets the page policy; a JSON or XML answer the data one, which loads nothing.
  const data = /json|xml/.test(res.headers.get("content-type") ?? "");
  expect(res.headers.get("content-security-policy")).toContain(
    data ? "default-src 'none'" : "default-src 'self'",
  );
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toMatch(/^[\w-]{8,}$/);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    msg: `${method} ${path} ${res.status}`,
    method,
    path,
    status: res.status,
    request_id: requestId,
  });
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe.each([
  ["without a static catch-all", false],
  ["with serveFiles('/') declared last", true],
])("a request no route matches, %s", (_label, withFiles) => {
  it.each([
    ["POST", "/nope", 404, "path not found: POST /nope/"],
    ["PUT", "/nope", 404, "path not found: PUT /nope/"],
    ["PATCH", "/widgets/new/x", 404, "path not found: PATCH /widgets/new/x/"],
    ["DELETE", "/nope", 404, "path not found: DELETE /nope/"],
    ["GET", "/nope", 404, "path not found: GET /nope/"],
  ])(
    "%s %s answers %i through the app middleware (headers, request id, one log line)",
    async (method, path, status, error) => {
      const { app, lines } = webApp(withFiles);
      const res = await send(app, method, path);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error, code: status, error_code: "E_ROUTE_NOT_FOUND" });
      expectAppMiddlewareRan(res, lines, method, path);
    },
  );

  // Rails answers an unknown format 406; a 404 would say the path is wrong, and it is not.
  it.each([
    ["GET", "/widgets.txt", 406, 'unknown format "txt": use html, json or xml'],
    ["POST", "/widgets.csv", 406, 'unknown format "csv": use html, json or xml'],
    ["GET", "/nope.txt", 404, "path not found: GET /nope.txt/"],
    // A dotfile names no format: `/` answers GET, `/.env` is still a 404.
    ["GET", "/.env", 404, "path not found: GET /.env/"],
    // `/widgets` answers no DELETE: nothing there to answer in another format.
    ["DELETE", "/widgets.txt", 404, "path not found: DELETE /widgets.txt/"],
  ])("%s %s (an extension none of ours) answers %i", async (method, path, status, error) => {
    const { app } = webApp(withFiles);
    const res = await send(app, method, path);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      error,
      code: status,
      error_code: status === 404 ? "E_ROUTE_NOT_FOUND" : "E_HTTP",
    });
  });

  it.each([
    ["DELETE", "/", "GET, HEAD, OPTIONS"],
    ["POST", "/widgets/1", "GET, PUT, DELETE, HEAD, OPTIONS"],
    ["PATCH", "/widgets", "GET, POST, HEAD, OPTIONS"],
  ])(
    "%s %s answers 405 with Allow: %s, through the app middleware",
    async (method, path, allow) => {
      const { app, lines } = webApp(withFiles);
      const res = await send(app, method, path);
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      const shown = path.endsWith("/") ? path : `${path}/`;
      expect(await res.json()).toEqual({
        error: `method not found: ${method} ${shown}`,
        code: 405,
        error_code: "E_HTTP",
      });
      expectAppMiddlewareRan(res, lines, method, path);
    },
  );

  it("answers HEAD with a bodiless 404 carrying the same headers", async () => {
    const { app, lines } = webApp(withFiles);
    const res = await send(app, "HEAD", "/nope");
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("");
    expectAppMiddlewareRan(res, lines, "HEAD", "/nope");
  });

  it("echoes the client's X-Request-Id on a 404 and logs it", async () => {
    const { app, lines } = webApp(withFiles);
    const res = await send(app, "POST", "/nope", { headers: { "x-request-id": "abc-123-def" } });
    expect(res.headers.get("x-request-id")).toBe("abc-123-def");
    expect(lines[0]?.request_id).toBe("abc-123-def");
  });

  it("renders the 404 as the app's HTML error page for a browser", async () => {
    const { app } = webApp(withFiles);
    const res = await app.fetch(
      new Request("http://localhost/nope", { method: "POST", headers: FORM, body: "a=1" }),
    );
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await res.text()).toContain("<h1>404 Not Found</h1>");
  });

  describe("CSRF (session + csrf middleware)", () => {
    it("answers an unknown form POST without a token 404, not 403", async () => {
      const { app, lines } = webApp(withFiles);
      const res = await send(app, "POST", "/nope", { headers: FORM, body: "title=x" });
      expect(res.status).toBe(404);
      expectAppMiddlewareRan(res, lines, "POST", "/nope");
    });

    it("answers a cross-site POST to an unknown path 404 (there is no action to protect)", async () => {
      const { app } = webApp(withFiles);
      const res = await send(app, "POST", "/nope", {
        headers: { ...FORM, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: "title=x",
      });
      expect(res.status).toBe(404);
      expect(res.headers.get("x-request-id")).not.toBeNull();
    });

    it("answers a form POST without a token to a path that exists under other methods 405, not 403", async () => {
      const { app, lines } = webApp(withFiles);
      const res = await send(app, "POST", "/widgets/1", { headers: FORM, body: "title=x" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, PUT, DELETE, HEAD, OPTIONS");
      expectAppMiddlewareRan(res, lines, "POST", "/widgets/1");
    });

    it("answers a form's _method override that matches nothing 404/405 too", async () => {
      const { app } = webApp(withFiles);
      const toNowhere = await send(app, "POST", "/nope", { headers: FORM, body: "_method=PUT" });
      expect(toNowhere.status).toBe(404);
      expect((await toNowhere.json()).error).toBe("path not found: PUT /nope/");
      expect(toNowhere.headers.get("x-request-id")).not.toBeNull();
      const wrongMethod = await send(app, "POST", "/widgets", {
        headers: FORM,
        body: "_method=DELETE",
      });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get("x-request-id")).not.toBeNull();
    });

    it("still refuses a matched POST without a token with 403, through the same middleware", async () => {
      const { app, lines } = webApp(withFiles);
      const res = await send(app, "POST", "/widgets", { headers: FORM, body: "title=x" });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: "CSRF token not found in request",
        code: 403,
        error_code: "E_HTTP",
      });
      expectAppMiddlewareRan(res, lines, "POST", "/widgets");
    });

    it("still refuses a matched cross-site JSON POST with 403", async () => {
      const { app } = webApp(withFiles);
      const res = await send(app, "POST", "/widgets", {
        headers: { "content-type": "application/json", origin: "https://evil.example" },
        body: "{}",
      });
      expect(res.status).toBe(403);
    });
  });

  it("writes no session cookie for an unmatched request, GET or POST, as for a matched one that changes nothing", async () => {
    const { app } = webApp(withFiles);
    const first = await send(app, "GET", "/token");
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).toMatch(/^_shop_session=/);
    for (const [method, path] of [
      ["GET", "/nope"],
      ["POST", "/nope"],
      ["DELETE", "/"],
    ] as const) {
      const res = await send(app, method, path, { headers: { cookie } });
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(404);
      expect(res.headers.get("set-cookie"), `${method} ${path}`).toBeNull();
    }
    const fresh = await send(app, "POST", "/nope");
    expect(fresh.headers.get("set-cookie")).toBeNull();
  });
});

describe("requests no route matches: which middleware runs", () => {
  it("runs the App's own middleware but not a group's or a resource's", async () => {
    const ran: string[] = [];
    const app = new App({ name: "t" });
    app.use(async (_c, next) => {
      ran.push("app");
      await next();
    });
    const admin = app.group("/admin");
    admin.use(async (_c, next) => {
      ran.push("admin");
      await next();
    });
    admin.get("/users", (c) => c.text("users"));
    const res = await send(app, "POST", "/admin/nope");
    expect(res.status).toBe(404);
    expect(ran).toEqual(["app"]);
  });

  it("lets an app-level guard ask noRouteMatched(c), so a 404 is not turned into a 401", async () => {
    const seen: boolean[] = [];
    const app = new App({ name: "t" });
    app.use(async (c, next) => {
      seen.push(noRouteMatched(c));
      if (!noRouteMatched(c) && c.req.header("authorization") === undefined) {
        throw new HttpError(401, "sign in first");
      }
      await next();
    });
    app.get("/secret", (c) => c.text("secret"));
    expect((await send(app, "GET", "/secret")).status).toBe(401);
    expect((await send(app, "DELETE", "/nope")).status).toBe(404);
    expect((await send(app, "POST", "/secret")).status).toBe(405);
    expect(seen).toEqual([false, true, true]);
  });

  it("takes in middleware added after the first unmatched request", async () => {
    const app = new App({ name: "t" });
    app.get("/", (c) => c.text("home"));
    expect((await send(app, "POST", "/nope")).headers.get("x-content-type-options")).toBeNull();
    app.use(securityHeaders());
    const res = await send(app, "POST", "/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers 500, never crashes, when an app middleware throws on an unmatched request", async () => {
    const lines: LogEntry[] = [];
    const logger: Logger = {
      info: (e) => lines.push(e),
      warn: () => {},
      error: (e) => lines.push(e),
    };
    const app = new App({ name: "t", env: "test" });
    app.use(paramLogger({ logger }));
    app.use(() => {
      throw new Error("boom");
    });
    app.get("/", (c) => c.text("home"));
    const res = await send(app, "PUT", "/nope");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal Server Error", code: 500 });
    expect(lines.map((l) => l.msg)).toEqual(["unhandled error", "PUT /nope 500"]);
  });

  it("sends a POST refused before routing (unknown _method) through the app middleware too", async () => {
    const lines: LogEntry[] = [];
    const logger: Logger = { info: (e) => lines.push(e), warn: () => {}, error: () => {} };
    const app = new App({ name: "t" });
    app.use(securityHeaders());
    app.use(paramLogger({ logger }));
    app.get("/", (c) => c.text("home"));
    app.resource("/widgets", new WidgetsResource());
    const res = await send(app, "POST", "/widgets/1", { headers: FORM, body: "_method=FOO" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'unknown _method "FOO": use PUT, PATCH or DELETE',
      code: 400,
      error_code: "E_HTTP",
    });
    expectAppMiddlewareRan(res, lines, "POST", "/widgets/1");
  });

  it("answers an app without middleware as before: 404 and 405 with Allow", async () => {
    const app = new App({ name: "t" });
    app.get("/", (c) => c.text("home"));
    expect((await send(app, "POST", "/nope")).status).toBe(404);
    const res = await send(app, "DELETE", "/");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
