import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { database, openDatabase } from "../data/database.js";
import { forceSSL } from "../middleware/force-ssl/force-ssl.js";
import { paramLogger } from "../middleware/param-logger/param-logger.js";
import { securityHeaders } from "../middleware/security-headers/security-headers.js";
import type { HealthCheckOptions } from "./health-check.js";
import type { LogEntry, Logger } from "./logger.js";

const dir = mkdtempSync(join(tmpdir(), "wisent-health-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A logger keeping what it was given. */
function recorder() {
  const lines: { level: string; entry: LogEntry }[] = [];
  const logger: Logger = {
    info: (entry) => lines.push({ level: "info", entry }),
    warn: (entry) => lines.push({ level: "warn", entry }),
    error: (entry) => lines.push({ level: "error", entry }),
  };
  return { lines, logger };
}

type Order = "before forceSSL and paramLogger" | "after them";

/** An app with force-SSL on and a request log, and the health route declared where `order` says. */
function appWith(order: Order, options: Omit<HealthCheckOptions, "logger">, api = false) {
  const requests = recorder();
  const checks = recorder();
  const app = new App({ name: "probe", api, env: "production" });
  app.use(securityHeaders());
  const health = { ...options, logger: checks.logger };
  if (order === "before forceSSL and paramLogger") app.healthCheck("/up", health);
  app.use(forceSSL({ enabled: true }));
  app.use(paramLogger({ logger: requests.logger }));
  if (order === "after them") app.healthCheck("/up", health);
  app.get("/", (c) => c.text("home"));
  return { app, requests: requests.lines, checks: checks.lines };
}

const ORDERS: Order[] = ["before forceSSL and paramLogger", "after them"];
const sqliteUrl = (name: string) => `sqlite:${join(dir, name)}`;

describe("app.healthCheck", () => {
  it.each(ORDERS)(
    "declared %s: 200 over plain HTTP with the security headers, no redirect, no log line",
    async (order) => {
      const db = database(sqliteUrl(`up-${order.length}.sqlite`));
      const { app, requests, checks } = appWith(order, { database: db });
      const res = await app.fetch(new Request("http://shop.example/up"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await res.text()).toContain("<h1>up</h1>");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("default-src");
      expect(res.headers.get("location")).toBeNull();
      expect(requests).toEqual([]);
      expect(checks).toEqual([]);
      // The same app redirects every other plain-HTTP request, and logs every other request.
      expect((await app.fetch(new Request("http://shop.example/"))).status).toBe(301);
      expect((await app.fetch(new Request("https://shop.example/"))).status).toBe(200);
      expect(requests.map((l) => l.entry.msg)).toEqual(["GET / 200"]);
      await db.close();
    },
  );

  it("answers HEAD, and JSON to a client asking for it", async () => {
    const db = database(sqliteUrl("json.sqlite"));
    const { app } = appWith("after them", { database: db });
    const head = await app.fetch(new Request("http://shop.example/up", { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const json = await app.fetch(
      new Request("http://shop.example/up", { headers: { accept: "application/json" } }),
    );
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ status: "up" });
    expect((await app.fetch(new Request("http://shop.example/up.json"))).status).toBe(200);
    await db.close();
  });

  it("answers JSON by default in an API app", async () => {
    const { app } = appWith("before forceSSL and paramLogger", {}, true);
    const res = await app.fetch(new Request("http://shop.example/up"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "up" });
  });

  const broken: [string, () => Promise<{ check(): Promise<unknown> }>, string][] = [
    [
      "a SQLite file whose directory cannot be made (a file is in the way)",
      async () => {
        writeFileSync(join(dir, "in-the-way"), "");
        return database(sqliteUrl("in-the-way/app.sqlite"));
      },
      "in-the-way",
    ],
    [
      "a closed database",
      async () => {
        const db = await openDatabase(sqliteUrl("closed.sqlite"));
        await db.close();
        return db;
      },
      "driver has already been destroyed",
    ],
    [
      "a database that does not answer in time",
      async () => ({ check: () => new Promise<void>(() => {}) }),
      "the database did not answer within 50 ms",
    ],
  ];

  it.each(ORDERS.flatMap((order) => broken.map((b) => [order, ...b] as const)))(
    "declared %s: 503 for %s, the cause logged and not shown",
    async (order, _, open, cause) => {
      const db = await open();
      const { app, requests, checks } = appWith(order, { database: db, timeoutMs: 50 });
      const res = await app.fetch(new Request("http://shop.example/up"));
      expect(res.status).toBe(503);
      const body = await res.text();
      expect(body).toContain("<h1>down</h1>");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(requests).toEqual([]);
      expect(checks).toHaveLength(1);
      expect(checks[0]!.level).toBe("error");
      expect(checks[0]!.entry.msg).toBe("health check /up failed");
      expect(String(checks[0]!.entry.error)).toContain(cause);
      expect(body).not.toContain(String(checks[0]!.entry.error));
      const json = await app.fetch(new Request("http://shop.example/up.json"));
      expect(json.status).toBe(503);
      expect(await json.json()).toEqual({ status: "down" });
    },
  );

  it("comes back up once the database answers again", async () => {
    let up = false;
    const db = { check: async () => (up ? undefined : Promise.reject(new Error("refused"))) };
    const { app } = appWith("after them", { database: db });
    expect((await app.fetch(new Request("http://shop.example/up"))).status).toBe(503);
    up = true;
    expect((await app.fetch(new Request("http://shop.example/up"))).status).toBe(200);
  });

  it("is a named route in the routes table, its path helper included", () => {
    const { app } = appWith("before forceSSL and paramLogger", {});
    expect(app.routes()[0]).toEqual({
      method: "GET",
      host: expect.any(String),
      path: "/up/",
      aliases: [],
      name: "upPath",
      handler: "healthCheck",
    });
    expect(app.pathFor("upPath")).toBe("/up");
    const other = new App({ name: "probe" });
    other.group("/internal").healthCheck("/health");
    expect(other.routes().map((r) => [r.path, r.name])).toEqual([
      ["/internal/health/", "internalHealthPath"],
    ]);
  });
});
