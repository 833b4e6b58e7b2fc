import { describe, expect, it } from "vitest";
import { testClient } from "wisent/testing";
import { freshApp } from "../test/support.js";

// The app as it runs in production: GO_ENV=production with a real session secret.
process.env.GO_ENV = "production";
process.env.SESSION_SECRET = "production-secret-for-the-shop-tests-0123456789";
// Production answers only the hosts it is told about (hostAuthorization).
process.env.ALLOWED_HOSTS = "shop.example";
const { app } = await freshApp();

describe("the shop in production", () => {
  it("redirects plain HTTP to HTTPS with 301, keeping path and query", async () => {
    const res = await app.fetch(new Request("http://shop.example/widgets?page=2"));
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("https://shop.example/widgets?page=2");
  });

  it("redirects a request that only claims HTTPS: X-Forwarded-Proto counts from TRUSTED_PROXIES", async () => {
    const res = await app.fetch(
      new Request("http://shop.example/widgets", { headers: { "x-forwarded-proto": "https" } }),
    );
    expect(res.status).toBe(301);
  });

  it("answers the health check /up over plain HTTP: a load balancer's probe is not redirected", async () => {
    const res = await app.fetch(new Request("http://shop.example/up"));
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(await res.text()).toContain("<h1>up</h1>");
  });

  it("serves a request that came over HTTPS, with a Secure _shop_session cookie", async () => {
    const client = testClient(app, { baseUrl: "https://localhost" });
    const res = await client.get("/widgets/new");
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^_shop_session=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
  });
});
