import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { App } from "../../app/app.js";
import { RateLimiter, rateLimit } from "./rate-limit.js";
import { redisStore } from "./redis-store.js";
import { memoryStore } from "./store.js";

function limitedApp(options: Partial<Parameters<typeof rateLimit>[0]> = {}) {
  const app = new App({ name: "limited", env: "test", api: true });
  app.use(
    rateLimit({ limit: 10, window: 60, by: (c) => c.req.header("x-client") ?? "?", ...options }),
  );
  app.get("/", (c) => c.json({ ok: true }));
  return app;
}

const hit = (app: App, client = "a", headers: Record<string, string> = {}) =>
  app.fetch(new Request("http://localhost/", { headers: { "x-client": client, ...headers } }));

describe("rateLimit (memory store)", () => {
  it("allows 10 in the window with RateLimit-* headers, and answers the 11th 429 with Retry-After", async () => {
    const app = limitedApp();
    for (let i = 1; i <= 10; i++) {
      const res = await hit(app);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("10");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(10 - i));
      expect(res.headers.get("ratelimit-policy")).toBe("10;w=60");
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    }
    const refused = await hit(app);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^too many requests: at most 10 every 60 s/),
      code: 429,
      error_code: "E_HTTP",
    });
    // Another key has its own count.
    expect((await hit(app, "b")).status).toBe(200);
  });

  it("answers problem+json when asked", async () => {
    const app = limitedApp({ limit: 1 });
    await hit(app);
    const refused = await hit(app, "a", { accept: "application/problem+json" });
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({ status: 429, title: "Too Many Requests" });
  });

  it("starts a new window once the old one ends", async () => {
    const limiter = new RateLimiter({ limit: 1, window: 0.05, store: memoryStore() });
    expect((await limiter.consume("k")).allowed).toBe(true);
    expect((await limiter.consume("k")).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await limiter.consume("k")).allowed).toBe(true);
    await limiter.reset("k");
    expect((await limiter.consume("k")).remaining).toBe(0);
  });

  describe("keyed by client address (the default)", () => {
    const app = new App({ name: "limited", env: "test", api: true });
    app.use(rateLimit({ limit: 10, window: 60 }));
    app.get("/", (c) => c.json({ ok: true }));
    /** The status of a request from the socket peer `peer`, with `headers`. */
    const from = async (peer: string, headers: Record<string, string> = {}) =>
      (
        await app.fetch(new Request("http://localhost/", { headers }), {
          incoming: { socket: { remoteAddress: peer } },
        })
      ).status;
    afterEach(() => {
      delete process.env.TRUSTED_PROXIES;
      delete process.env.TRUSTED_PROXY_HEADER;
    });

    it("counts an IPv6 /64 as one client: 25 addresses of one /64 get 10 answers, then 429", async () => {
      const statuses = [];
      for (let i = 1; i <= 25; i++) statuses.push(await from(`2001:db8:a:b::${i.toString(16)}`));
      expect(statuses).toEqual([...Array(10).fill(200), ...Array(15).fill(429)]);
      // The next /64 is another subscriber.
      expect(await from("2001:db8:a:c::1")).toBe(200);
    });

    it("counts IPv4 addresses, and IPv4-mapped IPv6 ones, each alone", async () => {
      for (let i = 1; i <= 25; i++) expect(await from(`::ffff:198.51.100.${i}`)).toBe(200);
      for (let i = 1; i <= 25; i++) expect(await from(`192.0.2.${i}`)).toBe(200);
    });

    it("keys a forwarded IPv6 client by its /64 behind a trusted proxy", async () => {
      process.env.TRUSTED_PROXIES = "10.0.0.1";
      const statuses = [];
      for (let i = 1; i <= 12; i++) {
        statuses.push(await from("10.0.0.1", { "x-forwarded-for": `2001:db8:f::${i}` }));
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    });

    it("behind a proxy that writes Forwarded, ignores the client's own X-Forwarded-For", async () => {
      process.env.TRUSTED_PROXIES = "10.0.0.2";
      process.env.TRUSTED_PROXY_HEADER = "forwarded";
      const statuses = [];
      for (let i = 1; i <= 11; i++) {
        statuses.push(
          await from("10.0.0.2", {
            "x-forwarded-for": `203.0.113.${i}`,
            forwarded: "for=198.51.100.200",
          }),
        );
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429]);
    });
  });

  it("refuses bad options with a message naming them", () => {
    expect(() => rateLimit({ limit: 0, window: 60 })).toThrow(/"limit" must be a whole number/);
    expect(() => rateLimit({ limit: 1, window: -1 })).toThrow(
      /"window" must be a number of seconds/,
    );
  });
});

describe("rateLimit (Redis store on 127.0.0.1:6379)", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill("SIGTERM");
  });

  /** A worker process limited through Redis; resolves with its URL. */
  function worker(prefix: string): Promise<string> {
    const script = fileURLToPath(new URL("./test-support/limited-server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, prefix], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 20_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const match = /listening (\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.on("exit", (code) => reject(new Error(`worker exited ${code}: ${output}`)));
    });
  }

  it("holds the limit across two worker processes: the 11th of 10 allowed is a 429", async () => {
    const prefix = `wisent-test:${randomUUID()}:`;
    const [a, b] = await Promise.all([worker(prefix), worker(prefix)]);
    const pids = new Set<number>();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await fetch(i % 2 === 0 ? a : b, { headers: { "x-client": "shared" } });
      statuses.push(res.status);
      if (res.status === 200) pids.add(((await res.json()) as { pid: number }).pid);
      else await res.arrayBuffer();
    }
    expect(pids.size).toBe(2);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  }, 40_000);

  it("counts in one process too, and forgets a key on reset", async () => {
    const store = redisStore({ prefix: `wisent-test:${randomUUID()}:` });
    try {
      const limiter = new RateLimiter({ limit: 2, window: 60, store });
      expect((await limiter.consume("k")).remaining).toBe(1);
      expect((await limiter.consume("k")).remaining).toBe(0);
      const third = await limiter.consume("k");
      expect(third.allowed).toBe(false);
      expect(third.headers["retry-after"]).toBe("60");
      await limiter.reset("k");
      expect((await limiter.consume("k")).allowed).toBe(true);
    } finally {
      await store.close();
    }
  });
});
