import { Hono } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { describe, expect, it } from "vitest";
import { App } from "../../app/app.js";
import { HttpError } from "../../base/http-error.js";
import { CSP_NONCE_KEY } from "../../base/symbols.js";
import { cspNonce } from "../../http/csp-nonce.js";
import "../../http/respond.js";
import {
  DEFAULT_CONTENT_SECURITY_POLICY,
  DEFAULT_PERMISSIONS_POLICY,
  honoSecureHeadersOptions,
  securityHeaders,
} from "./security-headers.js";

function appWith(middleware = securityHeaders()) {
  const app = new App({ name: "shop", env: "test" });
  app.use(middleware);
  app.get("/", (c) => c.html("<h1>Home</h1>"));
  app.get("/data", (c) => c.json({ ok: true }));
  app.get("/boom", () => {
    throw new Error("boom");
  });
  app.get("/gone", () => {
    throw new HttpError(410, "gone");
  });
  app.get("/away", (c) => c.redirect("/", 303));
  // A handler's own Response: Response.redirect's headers are immutable.
  app.get("/own", () => Response.redirect("http://localhost/", 302));
  return app;
}

const cspOf = (res: Response) =>
  Object.fromEntries(
    (res.headers.get("content-security-policy") ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(" ")]),
  );

describe("securityHeaders()", () => {
  it("sets CSP, nosniff, Referrer-Policy and framing headers on an HTML page", async () => {
    const res = await appWith().fetch(new Request("http://localhost/"));
    expect(res.status).toBe(200);
    const nonce = cspOf(res)["script-src"]!.match(/'nonce-([\w+/=]+)'/)![1];
    expect(cspOf(res)).toEqual({
      "default-src": "'self'",
      "base-uri": "'self'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
      "object-src": "'none'",
      "img-src": "'self' data:",
      "style-src": `'self' 'unsafe-inline' 'nonce-${nonce}'`,
      "style-src-attr": "'unsafe-inline'",
      "script-src": `'self' 'nonce-${nonce}'`,
    });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("permissions-policy")).toBe(
      "accelerometer=(), browsing-topics=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=(), xr-spatial-tracking=()",
    );
  });

  it("merges given Permissions-Policy features over the defaults; false sends none; JSON gets none", async () => {
    const given = appWith(
      securityHeaders({
        permissionsPolicy: { geolocation: ["self"], camera: ["self", "https://meet.example"] },
      }),
    );
    const policy = (await given.fetch(new Request("http://localhost/"))).headers.get(
      "permissions-policy",
    );
    expect(policy).toContain('camera=(self "https://meet.example")');
    expect(policy).toContain("geolocation=(self)");
    expect(policy).toContain("microphone=()");
    const off = appWith(securityHeaders({ permissionsPolicy: false }));
    expect(
      (await off.fetch(new Request("http://localhost/"))).headers.get("permissions-policy"),
    ).toBeNull();
    // A JSON answer is no document: no policy to apply (the lean data set).
    const data = await appWith().fetch(
      new Request("http://localhost/data", { headers: { accept: "application/json" } }),
    );
    expect(data.headers.get("permissions-policy")).toBeNull();
    expect(Object.isFrozen(DEFAULT_PERMISSIONS_POLICY)).toBe(true);
  });

  it.each([
    ["/boom", 500],
    ["/gone", 410],
    ["/away", 303],
    ["/data", 200],
    ["/own", 302],
  ])(
    "also on %s (%i): error pages, redirects, JSON and a handler's own Response",
    async (path, status) => {
      const res = await appWith().fetch(new Request(`http://localhost${path}`));
      expect(res.status).toBe(status);
      expect(cspOf(res)["frame-ancestors"]).toBe("'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    },
  );

  it.each([
    ["/gone", 410],
    ["/boom", 500],
    ["/nowhere", 404],
    ["/data", 200],
  ])("gives a JSON answer of %s (%i) the data CSP, not the page one", async (path, status) => {
    const res = await appWith().fetch(
      new Request(`http://localhost${path}`, { headers: { accept: "application/json" } }),
    );
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/json/);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("merges given directives over the defaults, directive by directive", async () => {
    const app = appWith(
      securityHeaders({ contentSecurityPolicy: { imgSrc: ["'self'", "https://cdn.example"] } }),
    );
    const csp = cspOf(await app.fetch(new Request("http://localhost/")));
    expect(csp["img-src"]).toBe("'self' https://cdn.example");
    expect(csp["script-src"]).toMatch(/^'self' 'nonce-[\w+/=]{24}'$/);
  });

  it("sends no CSP with contentSecurityPolicy: false, and passes other options to Hono", async () => {
    const app = appWith(
      securityHeaders({ contentSecurityPolicy: false, referrerPolicy: "no-referrer" }),
    );
    const res = await app.fetch(new Request("http://localhost/"));
    expect(res.headers.get("content-security-policy")).toBeNull();
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("puts a fresh nonce in script-src and style-src of each page, the one the page is given", async () => {
    const app = new App({ name: "shop", env: "test" });
    app.use(securityHeaders());
    app.get("/", (c) => c.html(`<meta name="csp-nonce" content="${cspNonce(c)}">`));
    app.get("/data", (c) => c.respond(200, { json: { ok: true } }));
    app.get("/hono", (c) => c.html(`<p>${cspNonce(c)}</p>`, 200, { "X-Own": "1" }));
    const nonces = new Set<string>();
    for (const path of ["/", "/", "/hono"]) {
      const res = await app.fetch(new Request(`http://localhost${path}`));
      const csp = cspOf(res);
      const nonce = csp["script-src"]!.match(/'nonce-([\w+/=]+)'/)![1]!;
      expect(csp["style-src"]).toContain(`'nonce-${nonce}'`);
      expect(await res.text()).toContain(nonce);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(3);
    // JSON loads nothing: its CSP stays the data one, with no nonce.
    const data = await app.fetch(new Request("http://localhost/data"));
    expect(data.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const off = new App({ name: "shop", env: "test" });
    off.use(securityHeaders({ nonce: false }));
    off.get("/", (c) => c.html(`${cspNonce(c)}`));
    const plain = await off.fetch(new Request("http://localhost/"));
    expect(plain.headers.get("content-security-policy")).not.toContain("nonce");
    expect(await plain.text()).toBe("undefined");
  });

  it("makes a request's nonce only for a page: when the page or its policy first needs it", async () => {
    const app = new App({ name: "shop", env: "test" });
    let made: unknown;
    // Outside securityHeaders(): what the request holds once it has answered.
    app.use(async (c, next) => {
      await next();
      made = (c as unknown as Record<symbol, unknown>)[CSP_NONCE_KEY];
    });
    app.use(securityHeaders());
    app.get("/data", (c) => c.respond(200, { json: { ok: true } }));
    app.get("/page", (c) => c.respond(200, { html: () => "<p>no script</p>" }));
    app.get("/away", (c) => c.redirect("/page", 303));
    await (await app.fetch(new Request("http://localhost/data"))).text();
    expect(typeof made).not.toBe("string");
    const page = await app.fetch(new Request("http://localhost/page"));
    expect(page.headers.get("content-security-policy")).toContain(`'nonce-${made}'`);
    expect(made).toMatch(/^[\w+/]{22}==$/);
    const away = await app.fetch(new Request("http://localhost/away"));
    expect(away.headers.get("content-security-policy")).toContain(`'nonce-${made}'`);
  });
  it("keeps the exported default frozen", () => {
    expect(Object.isFrozen(DEFAULT_CONTENT_SECURITY_POLICY)).toBe(true);
  });

  it.each([
    ["the defaults", {}],
    ["a CSP merged over the defaults", { contentSecurityPolicy: { styleSrc: ["'self'"] } }],
    ["no CSP and other values", { contentSecurityPolicy: false, xFrameOptions: "SAMEORIGIN" }],
    ["headers switched on and off", { crossOriginEmbedderPolicy: true, xXssProtection: false }],
    ["HSTS given", { strictTransportSecurity: "max-age=60" }],
    ["a header given as undefined", { xDnsPrefetchControl: undefined }],
    ["X-Powered-By kept", { removePoweredBy: false }],
    [
      "report-only CSP (Hono's own code)",
      { contentSecurityPolicyReportOnly: { defaultSrc: ["'self'"] } },
    ],
    ["a permissions policy merged over the defaults", { permissionsPolicy: { camera: ["self"] } }],
    ["no permissions policy", { permissionsPolicy: false }],
    [
      "a permissions policy with origins",
      { permissionsPolicy: { payment: ["self", "https://p.example"], usb: true, midi: ["*"] } },
    ],
    ["overwrite: false (Hono's own code)", { overwrite: false }],
  ] as const)("sends exactly what Hono's secureHeaders would with %s", async (_, options) => {
    const headersOf = async (middleware: ReturnType<typeof securityHeaders>) => {
      const app = new App({ name: "shop", env: "test" });
      app.use(middleware);
      // A page: JSON answers get the data set (see "gives a JSON answer ... the data CSP").
      app.get("/", (c) =>
        c.html("<p>ok</p>", 200, { "X-Powered-By": "x", "X-Frame-Options": "mine" }),
      );
      return [...(await app.fetch(new Request("http://localhost/"))).headers];
    };
    const expected = secureHeaders(honoSecureHeadersOptions(options as never));
    const withoutCaching = { ...(options as object), cacheControl: false, nonce: false };
    expect(await headersOf(securityHeaders(withoutCaching as never))).toEqual(
      await headersOf(expected),
    );
    // ...and by default, Cache-Control: private, no-cache besides.
    const all = new Map(
      await headersOf(securityHeaders({ ...(options as object), nonce: false } as never)),
    );
    expect(all.get("cache-control")).toBe("private, no-cache");
  });

  it("keeps a route's own Cache-Control and static files' max-age", async () => {
    for (const options of [{}, { permissionsPolicy: { camera: false } }]) {
      const app = new App({ name: "shop", env: "test" });
      app.use(securityHeaders(options as never));
      app.get("/public", (c) => {
        c.header("Cache-Control", "public, max-age=60");
        return c.json({ ok: true });
      });
      app.get("/plain", (c) => c.json({ ok: true }));
      const res = await app.fetch(new Request("http://localhost/public"));
      expect(res.headers.get("cache-control")).toBe("public, max-age=60");
      const plain = await app.fetch(new Request("http://localhost/plain"));
      expect(plain.headers.get("cache-control")).toBe("private, no-cache");
    }
  });

  it("leaves a per-request nonce to Hono", async () => {
    const hono = new Hono();
    hono.use(securityHeaders({ contentSecurityPolicy: { scriptSrc: [NONCE] } }));
    hono.get("/", (c) => c.text(String(c.get("secureHeadersNonce"))));
    const res = await hono.request("/");
    expect(res.headers.get("content-security-policy")).toContain(`'nonce-${await res.text()}'`);
  });
});
