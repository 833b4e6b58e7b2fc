import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { installAllContextMethods } from "../../app/test-support/context-methods.js";
import { HttpError } from "../../base/http-error.js";
import { errorResponse } from "../../http/error-response.js";
import { markNoRoute, noRouteAnswer } from "../../http/no-route.js";
import { session } from "../session/session.js";
import { csrf } from "./csrf.js";
import { maskCsrfToken, newCsrfSecret, verifyCsrfToken } from "./csrf-token.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

function app() {
  const hono = new Hono();
  hono.onError(errorResponse);
  hono.use(session({ secret: "c".repeat(32), appName: "shop" }));
  hono.use(csrf());
  hono.get("/form", (c) => c.text(c.csrfToken()));
  hono.all("/widgets", (c) => c.text(`${c.req.method} ok`));
  return hono;
}

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

async function tokenAndCookie(hono: Hono) {
  const res = await hono.request("/form");
  return { token: await res.text(), cookie: cookieOf(res) };
}

const form = (cookie: string, body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: {
    cookie,
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
    ...headers,
  },
  body,
});

const jsonPost = (headers: Record<string, string>, contentType = "application/json") => ({
  method: "POST",
  headers: { "content-type": contentType, accept: "application/json", ...headers },
  body: contentType.includes("json") ? '{"title":"x"}' : "<widget><title>x</title></widget>",
});

describe("csrf token masking", () => {
  it("masks each token differently and verifies all of them, only for their secret", () => {
    const secret = newCsrfSecret();
    const a = maskCsrfToken(secret);
    const b = maskCsrfToken(secret);
    expect(a).not.toBe(b);
    expect(a).toHaveLength(86);
    expect(verifyCsrfToken(a, secret) && verifyCsrfToken(b, secret)).toBe(true);
    expect(verifyCsrfToken(a, newCsrfSecret())).toBe(false);
    expect(verifyCsrfToken("short", secret)).toBe(false);
    expect(verifyCsrfToken(secret, secret)).toBe(false);
  });
});

describe("csrf middleware", () => {
  it("makes no secret (and writes no session) for a request that never asks for a token", async () => {
    const res = await app().request("/widgets", { headers: { accept: "application/json" } });
    expect(await res.text()).toBe("GET ok");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("lets safe methods through without a token", async () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect((await app().request("/widgets", { method })).status).toBe(200);
    }
  });

  it("accepts the form field and the X-CSRF-Token header from the same session", async () => {
    const hono = app();
    const { token, cookie } = await tokenAndCookie(hono);
    const viaForm = await hono.request(
      "/widgets",
      form(cookie, `title=x&authenticity_token=${encodeURIComponent(token)}`),
    );
    expect(await viaForm.text()).toBe("POST ok");
    const viaHeader = await hono.request("/widgets", {
      method: "DELETE",
      headers: { cookie, "x-csrf-token": token },
    });
    expect(await viaHeader.text()).toBe("DELETE ok");
    const multipart = new FormData();
    multipart.set("authenticity_token", token);
    const viaMultipart = await hono.request("/widgets", {
      method: "PUT",
      headers: { cookie },
      body: multipart,
    });
    expect(await viaMultipart.text()).toBe("PUT ok");
  });

  it("accepts the token from the query string, as htmx's hx-vals sends it on a DELETE", async () => {
    const hono = app();
    const { token, cookie } = await tokenAndCookie(hono);
    const query = `?authenticity_token=${encodeURIComponent(token)}`;
    const bodiless = await hono.request(`/widgets${query}`, {
      method: "DELETE",
      headers: { cookie, accept: "application/json" },
    });
    expect(await bodiless.text()).toBe("DELETE ok");
    const formWithout = await hono.request(`/widgets${query}`, form(cookie, "title=x"));
    expect(await formWithout.text()).toBe("POST ok");
    const forged = await hono.request("/widgets?authenticity_token=forged", {
      method: "DELETE",
      headers: { cookie, accept: "application/json" },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({
      error: "CSRF token invalid",
      code: 403,
      error_code: "E_HTTP",
    });
  });

  it.each([
    [
      "no token",
      async () => form((await tokenAndCookie(app())).cookie, "title=x"),
      "CSRF token not found in request",
    ],
    [
      "an empty token",
      async () => form((await tokenAndCookie(app())).cookie, "authenticity_token="),
      "CSRF token not found in request",
    ],
    [
      "a garbage token",
      async () => form((await tokenAndCookie(app())).cookie, "authenticity_token=abc"),
      "CSRF token invalid",
    ],
    [
      "another session's token",
      async () => {
        const mine = await tokenAndCookie(app());
        const theirs = await tokenAndCookie(app());
        return form(mine.cookie, `authenticity_token=${encodeURIComponent(theirs.token)}`);
      },
      "CSRF token invalid",
    ],
    [
      "a token without any session",
      async () =>
        form("", `authenticity_token=${encodeURIComponent((await tokenAndCookie(app())).token)}`),
      "CSRF token invalid",
    ],
    [
      "a DELETE carrying the session cookie without a token",
      async () => ({
        method: "DELETE",
        headers: { accept: "application/json", cookie: (await tokenAndCookie(app())).cookie },
      }),
      "CSRF token not found: a request carrying the session cookie with a body that is not a form needs the X-CSRF-Token header (or ?authenticity_token=) or proof of same origin (Origin or Sec-Fetch-Site: same-origin)",
    ],
  ])("refuses %s with 403", async (_name, makeInit, message) => {
    const res = await app().request("/widgets", (await makeInit()) as RequestInit);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: message, code: 403, error_code: "E_HTTP" });
  });

  it("exempts same-origin JSON and XML bodies from the token", async () => {
    const hono = app();
    expect((await hono.request("http://shop.test/widgets", jsonPost({}))).status).toBe(200);
    expect(
      (await hono.request("http://shop.test/widgets", jsonPost({ origin: "http://shop.test" })))
        .status,
    ).toBe(200);
    expect(
      (
        await hono.request(
          "http://shop.test/widgets",
          jsonPost({ "sec-fetch-site": "same-origin" }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await hono.request("http://shop.test/widgets", jsonPost({}, "application/xml"))).status,
    ).toBe(200);
  });

  it.each([
    [
      { "sec-fetch-site": "cross-site" },
      "application/json",
      "cross-site request refused (Sec-Fetch-Site: cross-site)",
    ],
    [
      { origin: "http://evil.test" },
      "application/json",
      "cross-site request refused (Origin http://evil.test is not the app's origin http://shop.test)",
    ],
    [{ origin: "null" }, "application/json", "cross-site request refused (Origin: null)"],
    // Hosts the WHATWG URL parser refuses, in the Origin or the Host: a 403, never a 500.
    [
      { origin: "http://1.2.3.256" },
      "application/json",
      "cross-site request refused (malformed Origin: http://1.2.3.256)",
    ],
    [
      { host: "1.2.3.256", origin: "http://shop.test" },
      "application/json",
      "cross-site request refused (Origin http://shop.test is not the app's origin (invalid Host))",
    ],
    [
      { origin: "http://evil.test" },
      "text/xml",
      "cross-site request refused (Origin http://evil.test is not the app's origin http://shop.test)",
    ],
  ])("refuses cross-site JSON/XML %o with 403", async (headers, contentType, message) => {
    const res = await app().request("http://shop.test/widgets", jsonPost(headers, contentType));
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(message);
  });
});

describe("csrf middleware, cross-site requests carrying a valid token", () => {
  it.each([
    [
      { origin: "http://evil.test" },
      "cross-site request refused (Origin http://evil.test is not the app's origin http://shop.test)",
    ],
    [{ "sec-fetch-site": "cross-site" }, "cross-site request refused (Sec-Fetch-Site: cross-site)"],
  ])(
    "refuses a form post with its own session's token from %o with 403",
    async (headers, message) => {
      const hono = app();
      const { token, cookie } = await tokenAndCookie(hono);
      const res = await hono.request(
        "http://shop.test/widgets",
        form(cookie, `title=x&authenticity_token=${encodeURIComponent(token)}`, headers),
      );
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe(message);
      const sameOrigin = await hono.request(
        "http://shop.test/widgets",
        form(cookie, `title=x&authenticity_token=${encodeURIComponent(token)}`, {
          origin: "http://shop.test",
        }),
      );
      expect(await sameOrigin.text()).toBe("POST ok");
    },
  );
});

describe("csrf middleware, requests no route matched", () => {
  /** As the App runs its middleware for such a request: marked first, answered with the error. */
  function unmatchedApp() {
    const hono = new Hono();
    hono.onError(errorResponse);
    hono.use((c, next) => {
      markNoRoute(c, new HttpError(404, "path not found: POST /nope/"));
      return next();
    });
    hono.use(session({ secret: "c".repeat(32), appName: "shop" }));
    hono.use(csrf());
    hono.all("/nope", (c) => {
      throw noRouteAnswer(c)!;
    });
    return hono;
  }

  it("skips the token and origin checks, so the 404 comes through (no action to protect)", async () => {
    for (const init of [
      form("", "title=x"),
      { method: "DELETE", headers: { accept: "application/json" } },
      jsonPost({ origin: "http://evil.test" }),
      form("", "title=x", { "sec-fetch-site": "cross-site" }),
    ]) {
      const res = await unmatchedApp().request("http://shop.test/nope", init);
      expect(res.status).toBe(404);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("checks the same requests when a route matched", async () => {
    const res = await app().request("http://shop.test/widgets", form("", "title=x"));
    expect(res.status).toBe(403);
  });
});

describe("csrf middleware, the Origin check compares scheme, host and port", () => {
  it.each([
    ["http://shop.test", {}, 200],
    ["http://shop.test:80", {}, 200],
    ["http://shop.test:8080", {}, 403],
    ["https://shop.test", {}, 403],
    ["http://shop.test.evil", {}, 403],
    // Behind a trusted proxy that terminates TLS: the app's own origin is https.
    ["http://shop.test", { "x-forwarded-proto": "https" }, 403, "10.0.0.1"],
    ["https://shop.test", { "x-forwarded-proto": "https" }, 200, "10.0.0.1"],
    // From a peer that is not a trusted proxy the header is the client's own: ignored.
    ["http://shop.test", { "x-forwarded-proto": "https" }, 200, "192.0.2.1"],
    ["https://shop.test", { "x-forwarded-proto": "https" }, 403, "192.0.2.1"],
    // X-Forwarded-Host, likewise: the host a trusted proxy was asked for.
    ["http://public.test", { "x-forwarded-host": "public.test" }, 200, "10.0.0.1"],
    ["http://public.test", { "x-forwarded-host": "public.test" }, 403, "192.0.2.1"],
    ["http://public.test", { "x-forwarded-host": "public.test" }, 403, undefined],
  ])(
    "Origin %s with %o answers %i to a form post with a valid token (peer %s)",
    async (origin, extra, status, peer?: string) => {
      process.env.TRUSTED_PROXIES = "10.0.0.1";
      try {
        const hono = app();
        const { token, cookie } = await tokenAndCookie(hono);
        const env = peer === undefined ? {} : { incoming: { socket: { remoteAddress: peer } } };
        const res = await hono.request(
          "http://shop.test/widgets",
          form(cookie, `authenticity_token=${encodeURIComponent(token)}`, { origin, ...extra }),
          env,
        );
        expect(res.status).toBe(status);
      } finally {
        delete process.env.TRUSTED_PROXIES;
      }
    },
  );
});

describe("csrf middleware, one rule for every body that is not a form", () => {
  const types = [
    "application/json",
    "application/xml",
    "text/xml",
    "application/vnd.api+json",
    "application/problem+xml",
    "text/plain",
    undefined,
  ];
  const post = (contentType: string | undefined, headers: Record<string, string>) => ({
    method: "POST",
    headers: {
      accept: "application/json",
      ...(contentType ? { "content-type": contentType } : {}),
      ...headers,
    },
    body: contentType ? "x" : undefined,
  });

  it.each(types)(
    "%s: refused with the session cookie and neither a token header nor same-origin proof",
    async (type) => {
      const hono = app();
      const { cookie } = await tokenAndCookie(hono);
      const res = await hono.request("http://shop.test/widgets", post(type, { cookie }));
      expect(res.status).toBe(403);
    },
  );

  it.each(types)(
    "%s: passes with the token header, Sec-Fetch-Site: same-origin, the app's Origin, or no session cookie",
    async (type) => {
      const hono = app();
      const { token, cookie } = await tokenAndCookie(hono);
      const cases: Record<string, string>[] = [
        { cookie, "x-csrf-token": token },
        { cookie, "sec-fetch-site": "same-origin" },
        { cookie, origin: "http://shop.test" },
        {},
      ];
      for (const headers of cases) {
        const res = await hono.request("http://shop.test/widgets", post(type, headers));
        expect(res.status, JSON.stringify(headers)).toBe(200);
      }
      const wrong = await hono.request(
        "http://shop.test/widgets",
        post(type, { cookie, "x-csrf-token": "abc" }),
      );
      expect(wrong.status).toBe(403);
    },
  );
});
