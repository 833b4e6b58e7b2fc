import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { forceSSL } from "./force-ssl.js";

function app(options: Parameters<typeof forceSSL>[0]) {
  const hono = new Hono();
  hono.use(forceSSL(options));
  hono.all("*", (c) => c.text("ok"));
  return hono;
}

describe("forceSSL", () => {
  const on = app({ enabled: true });

  it("redirects plain HTTP GET with 301 to the same host, path and query", async () => {
    const res = await on.request("http://shop.example/widgets/1?page=2");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("https://shop.example/widgets/1?page=2");
  });

  it("keeps non-GET methods with 308", async () => {
    const res = await on.request("http://shop.example/widgets", { method: "POST" });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("https://shop.example/widgets");
  });

  it("lets HTTPS and X-Forwarded-Proto: https through", async () => {
    expect((await on.request("https://shop.example/")).status).toBe(200);
    const proxied = await on.request("http://shop.example/", {
      headers: { "x-forwarded-proto": "https" },
    });
    expect(proxied.status).toBe(200);
    const spoofy = await on.request("http://shop.example/", {
      headers: { "x-forwarded-proto": "http" },
    });
    expect(spoofy.status).toBe(301);
  });

  it("is off outside production by default", async () => {
    const previous = { GO_ENV: process.env.GO_ENV };
    process.env.GO_ENV = "development";
    try {
      expect((await app({}).request("http://shop.example/")).status).toBe(200);
      process.env.GO_ENV = "production";
      expect((await app({}).request("http://shop.example/")).status).toBe(301);
    } finally {
      if (previous.GO_ENV === undefined) delete process.env.GO_ENV;
      else process.env.GO_ENV = previous.GO_ENV;
    }
  });

  it("sends HSTS of two years with includeSubDomains by default, as Rails; hsts: false turns it off", async () => {
    const res = await on.request("https://shop.example/");
    expect(res.headers.get("strict-transport-security")).toBe(
      "max-age=63072000; includeSubDomains",
    );
    const custom = app({ enabled: true, hsts: { maxAge: 600, includeSubDomains: false } });
    expect(
      (await custom.request("https://shop.example/")).headers.get("strict-transport-security"),
    ).toBe("max-age=600");
    const off = app({ enabled: true, hsts: false });
    expect(
      (await off.request("https://shop.example/")).headers.get("strict-transport-security"),
    ).toBeNull();
  });

  it("redirects to APP_URL's host when set, never to a forged Host", async () => {
    process.env.APP_URL = "https://shop.example.com";
    try {
      const res = await on.request("http://shop.example/widgets?page=2", {
        headers: { host: "evil.example" },
      });
      expect(res.headers.get("location")).toBe("https://shop.example.com/widgets?page=2");
    } finally {
      delete process.env.APP_URL;
    }
  });

  it("refuses a Host that is not a host rather than echo it", async () => {
    const res = await on.request("http://shop.example/", { headers: { host: 'a"b' } });
    expect(res.status).not.toBe(301);
    expect(res.headers.get("location")).toBeNull();
  });
});
