import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../app/app.js";
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

  it("lets HTTPS through", async () => {
    expect((await on.request("https://shop.example/")).status).toBe(200);
  });

  describe("X-Forwarded-Proto", () => {
    afterEach(() => {
      delete process.env.TRUSTED_PROXIES;
      delete process.env.TRUSTED_PROXY_HEADER;
    });
    /** The status of a plain-HTTP request from the socket peer `peer` with `headers`. */
    const from = async (peer: string | undefined, headers: Record<string, string>) => {
      const env = peer === undefined ? {} : { incoming: { socket: { remoteAddress: peer } } };
      return (await on.request("http://shop.example/", { headers }, env)).status;
    };
    const HTTPS = { "x-forwarded-proto": "https" };

    it.each([
      // [TRUSTED_PROXIES, peer, headers, status]
      ["10.9.9.9", "10.9.9.9", HTTPS, 200],
      ["10.0.0.0/8", "::ffff:10.9.9.9", HTTPS, 200],
      ["10.9.9.9", "10.9.9.9", { "x-forwarded-proto": "http" }, 301],
      // Only a trusted proxy's header counts: anyone else's is the client's own claim.
      ["10.9.9.9", "127.0.0.1", HTTPS, 301],
      [undefined, "127.0.0.1", HTTPS, 301],
      // In-process (no socket, no peer): the URL's scheme alone.
      ["0.0.0.0/0", undefined, HTTPS, 301],
    ] as const)(
      "TRUSTED_PROXIES=%s, from %s with %j: %i",
      async (trusted, peer, headers, status) => {
        if (trusted !== undefined) process.env.TRUSTED_PROXIES = trusted;
        expect(await from(peer, headers)).toBe(status);
      },
    );

    it("logs once, naming the peer and TRUSTED_PROXIES, when it redirects a request that claims HTTPS", async () => {
      const warnings: string[] = [];
      const logger = { info() {}, error() {}, warn: (e: { msg: string }) => warnings.push(e.msg) };
      const logged = new Hono();
      logged.use(forceSSL({ enabled: true, logger }));
      logged.all("*", (c) => c.text("ok"));
      const env = { incoming: { socket: { remoteAddress: "10.1.1.1" } } };
      await logged.request("http://shop.example/", {}, env);
      expect(warnings).toEqual([]);
      for (let i = 0; i < 3; i++)
        await logged.request("http://shop.example/", { headers: HTTPS }, env);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/from 10\.1\.1\.1 says it came over HTTPS.*TRUSTED_PROXIES/);
    });

    it("reads Forwarded's proto instead under TRUSTED_PROXY_HEADER=forwarded", async () => {
      process.env.TRUSTED_PROXIES = "10.9.9.9";
      process.env.TRUSTED_PROXY_HEADER = "forwarded";
      expect(await from("10.9.9.9", { forwarded: "for=203.0.113.7;proto=https" })).toBe(200);
      expect(await from("10.9.9.9", HTTPS)).toBe(301);
    });

    /** An App with forceSSL on a port, and a GET of its root with X-Forwarded-Proto: https. */
    const served = async () => {
      const app = new App({ name: "t" });
      app.use(forceSSL({ enabled: true }));
      app.get("/", (c) => c.text("ok"));
      const server = await app.listen({ port: 0, handleSignals: false });
      const get = () =>
        fetch(`${server.url}/`, { headers: HTTPS, redirect: "manual" }).then((r) => r.status);
      return { get, close: () => server.close() };
    };

    it.each([
      ["10.9.9.9", 301],
      ["127.0.0.1", 200],
    ])(
      "over a socket, TRUSTED_PROXIES=%s: 127.0.0.1's claim answers %i",
      async (trusted, status) => {
        process.env.TRUSTED_PROXIES = trusted;
        const server = await served();
        try {
          expect(await server.get()).toBe(status);
        } finally {
          await server.close();
        }
      },
    );

    it("reads TRUSTED_PROXIES once an App, at its first request, as it reads GO_ENV", async () => {
      process.env.TRUSTED_PROXIES = "127.0.0.1";
      const server = await served();
      try {
        expect(await server.get()).toBe(200);
        process.env.TRUSTED_PROXIES = "10.9.9.9";
        expect(await server.get()).toBe(200);
      } finally {
        await server.close();
      }
    });
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
