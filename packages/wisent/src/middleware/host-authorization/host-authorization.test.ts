import { describe, expect, it } from "vitest";
import { App } from "../../app/app.js";
import { hostAuthorization } from "./host-authorization.js";

function app(options: Parameters<typeof hostAuthorization>[0]) {
  const wisent = new App({ name: "hosts", env: "production" });
  wisent.use(hostAuthorization(options));
  wisent.get("/", (c) => c.text("ok"));
  return wisent;
}

const get = (a: App, host: string) =>
  a.fetch(new Request("http://any.invalid/", { headers: { host, accept: "application/json" } }));

describe("hostAuthorization", () => {
  const strict = app({ enabled: true, hosts: ["shop.example.com", ".example.org"] });

  it.each([
    ["shop.example.com", 200],
    ["SHOP.example.com:8443", 200],
    ["example.org", 200],
    ["a.b.example.org", 200],
    ["localhost:3000", 200],
    ["127.0.0.1", 200],
    ["[::1]:3000", 200],
    ["evil.example", 400],
    ["shop.example.com.evil.example", 400],
    ["notexample.org", 400],
    ['a"b', 400],
    ["1.2.3.256", 400],
  ])("Host %s answers %i", async (host, status) => {
    expect((await get(strict, host)).status).toBe(status);
  });

  it("names the blocked host and how to allow it", async () => {
    const res = await get(strict, "evil.example");
    expect(((await res.json()) as { error: string }).error).toBe(
      'Blocked host: evil.example. To answer requests for it, add it to ALLOWED_HOSTS (comma-separated, ".evil.example" for its subdomains too) or set APP_URL to the app\'s URL',
    );
  });

  it("takes ALLOWED_HOSTS and APP_URL's host from the environment", async () => {
    process.env.ALLOWED_HOSTS = "a.example, b.example";
    process.env.APP_URL = "https://shop.example.net";
    try {
      const fromEnv = app({ enabled: true });
      for (const host of ["a.example", "b.example", "shop.example.net"]) {
        expect((await get(fromEnv, host)).status, host).toBe(200);
      }
      expect((await get(fromEnv, "c.example")).status).toBe(400);
    } finally {
      delete process.env.ALLOWED_HOSTS;
      delete process.env.APP_URL;
    }
  });

  it("is off outside production-like environments by default", async () => {
    const previous = process.env.GO_ENV;
    process.env.GO_ENV = "development";
    try {
      expect((await get(app({ hosts: [] }), "evil.example")).status).toBe(200);
      process.env.GO_ENV = "staging";
      expect((await get(app({ hosts: [] }), "evil.example")).status).toBe(400);
    } finally {
      if (previous === undefined) delete process.env.GO_ENV;
      else process.env.GO_ENV = previous;
    }
  });
});
