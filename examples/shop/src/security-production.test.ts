/**
 * The shop's production defaults (docs/security.md in Wisent): host authorization, HTTPS and
 * HSTS, absolute URLs from APP_URL, a Secure session cookie, full-origin CSRF, no stack traces;
 * and every environment but development and test refusing to start without SESSION_SECRET.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testClient } from "wisent/testing";
import { freshApp } from "../test/support.js";

process.env.GO_ENV = "production";
process.env.SESSION_SECRET = "production-secret-for-the-shop-security-tests-0123";
process.env.APP_URL = "https://shop.example.com";
delete process.env.ALLOWED_HOSTS;
const { app } = await freshApp();

// TLS ends at the app in these in-process requests (an https URL): a proxy's X-Forwarded-Proto
// counts only from a peer of TRUSTED_PROXIES, and an in-process request has no peer.
const send = (url: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  app.fetch(new Request(url, { ...init, headers: { accept: "application/json", ...headers } }));

describe("the shop in production", () => {
  it.each([
    ["APP_URL's host", "shop.example.com", 200],
    ["a loopback name (health checks)", "localhost:3000", 200],
    ["a forged host", "evil.example", 400],
    ["a host that only ends like the app's", "evilshop.example.com", 400],
    ["a Host that is not a host", "1.2.3.256", 400],
  ])("answers %s (%s) with %i", async (_name, host, status) => {
    const res = await send("https://x.invalid/widgets", { host });
    expect(res.status).toBe(status);
  });

  it("names the blocked host and how to allow it", async () => {
    const res = await send("https://x.invalid/widgets", { host: "evil.example" });
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^Blocked host: evil\.example\. To answer requests for it, add it to ALLOWED_HOSTS/,
    );
  });

  it("redirects plain HTTP to APP_URL over HTTPS", async () => {
    const res = await send("http://shop.example.com/widgets?page=2", {
      host: "shop.example.com",
    });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("https://shop.example.com/widgets?page=2");
  });

  it("sends HSTS for two years with includeSubDomains", async () => {
    const res = await send("https://shop.example.com/widgets");
    expect(res.headers.get("strict-transport-security")).toBe(
      "max-age=63072000; includeSubDomains",
    );
  });

  it("builds the pagination Link from APP_URL, keeping the format", async () => {
    const api = testClient(app, {
      baseUrl: "https://localhost",
      headers: { accept: "application/json" },
    });
    for (const title of ["a", "b", "c"]) {
      expect((await api.post("/widgets", { json: { title } })).status).toBe(201);
    }
    const res = await send("https://localhost/widgets.json?per_page=1", { host: "localhost" });
    expect(res.headers.get("link")).toMatch(
      /^<https:\/\/shop\.example\.com\/widgets\.json\?per_page=1&page=1>; rel="first"/,
    );
  });

  it("refuses a form post whose Origin is the app's host over http (scheme compared)", async () => {
    const browser = testClient(app, { baseUrl: "https://shop.example.com" });
    await browser.get("/widgets/new");
    const plain = await browser.post("/widgets", {
      form: { title: "x" },
      headers: { origin: "http://shop.example.com" },
    });
    expect(plain.status).toBe(403);
    const secure = await browser.post("/widgets", {
      form: { title: "x" },
      headers: { origin: "https://shop.example.com" },
    });
    expect(secure.status).toBe(303);
    expect(secure.headers.get("cache-control")).toBe("no-store");
  });

  it("sets a Secure session cookie and shows no stack trace", async () => {
    const page = await app.fetch(new Request("https://shop.example.com/widgets/new"));
    expect(page.headers.get("set-cookie")).toMatch(/; Secure/);
    const missing = await send("https://shop.example.com/widgets/nope");
    expect(missing.status).toBe(404);
    expect(JSON.stringify(await missing.json())).not.toMatch(/trace|at .*\.ts/);
  });
});

describe("environments that refuse to start without SESSION_SECRET", () => {
  const shop = fileURLToPath(new URL("..", import.meta.url));
  it.each(["staging", "Production"])(
    "%s",
    (env) => {
      const result = spawnSync(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", "await import('./src/app.ts')"],
        {
          cwd: shop,
          encoding: "utf8",
          env: { ...process.env, GO_ENV: env, SESSION_SECRET: "", NODE_ENV: "" },
          timeout: 60_000,
        },
      );
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(
        `SESSION_SECRET is not set: the ${env} environment needs a secret`,
      );
      expect(result.stderr).toContain("npx wisent secret");
    },
    60_000,
  );
});
