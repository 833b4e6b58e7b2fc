/**
 * An enqueue inside a request when the jobs' engine cannot be reached: the request answers 503
 * (with Retry-After) and nothing it wrote stays, neither its record nor its job; the next request
 * works. On PostgreSQL and MariaDB the database connection is cut between the request's write and
 * its enqueue (the jobs table is in the same database); on Redis (JOBS_URL) nothing listens.
 */
import { createServer } from "node:net";
import { Hono } from "hono";
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
import { openDatabase } from "../data/database.js";
import { availableDialects } from "../data/test-support/test-databases.js";
import { Widget } from "../data/test-support/widget.js";
import { errorResponse } from "../http/error-response.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { defineJob } from "./define-job.js";
import { listJobs } from "./job-store.js";
import { redisJobs, resetRedisJobs } from "./redis-engine.js";
import { jobsTestDatabase } from "./test-support/jobs-database.js";

installAllContextMethods();
const available = await availableDialects();

const SendDigest = defineJob({
  name: "send_digest",
  payload: z.object({ email: z.email() }),
  perform() {},
});

const post = (cut: boolean) =>
  new Request(`http://localhost/widgets${cut ? "?cut=1" : ""}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ title: "Gear", email: "ada@example.com" }),
  });

/** Ends the request transaction's own connection from another one, as a database restart does. */
const CUT = {
  postgres: async (tx: Parameters<typeof Widget.create>[0], admin: string) => {
    const { rows } = await sql<{ id: number }>`select pg_backend_pid() as id`.execute(tx);
    const other = await openDatabase(admin, { poolSize: 1 });
    await sql`select pg_terminate_backend(${rows[0]!.id})`.execute(other.kysely);
    await other.close();
  },
  mysql: async (tx: Parameters<typeof Widget.create>[0], admin: string) => {
    const { rows } = await sql<{ id: number }>`select connection_id() as id`.execute(tx);
    const other = await openDatabase(admin, { poolSize: 1 });
    await sql.raw(`kill ${Number(rows[0]!.id)}`).execute(other.kysely);
    await other.close();
  },
};

/** An app whose POST /widgets creates a widget, then enqueues a digest (`?cut=1`: `cut` between). */
function widgetsApp(
  db: Parameters<typeof transaction>[0],
  cut: (tx: Parameters<typeof Widget.create>[0]) => Promise<void> = async () => {},
) {
  const hono = new Hono();
  hono.onError(errorResponse);
  hono.use(transaction(db));
  hono.post("/widgets", async (c) => {
    const body = await c.req.json();
    const tx = await c.tx();
    await Widget.create(tx, { title: body.title });
    if (c.req.query("cut")) await cut(tx);
    await SendDigest.enqueue(c.tx(), { email: body.email });
    return c.json({}, 201);
  });
  return hono;
}

describe.each(["postgres", "mysql"] as const)("an enqueue with %s gone", (dialect) => {
  const t = jobsTestDatabase(dialect, available[dialect]);
  const run = it.skipIf(!available[dialect]);
  afterEach(() => vi.restoreAllMocks());

  run(
    "answers 503 and leaves neither the record nor its job; the next request commits both",
    async () => {
      const hono = widgetsApp(t.db, (tx) => CUT[dialect](tx, t.url));
      vi.spyOn(console, "error").mockImplementation(() => {});
      const refused = await hono.fetch(post(true));
      expect(refused.status, await refused.clone().text()).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await Widget.all(t.db.kysely)).toEqual([]);
      expect(await listJobs(t.db.kysely)).toEqual([]);
      expect((await hono.fetch(post(false))).status).toBe(201);
      expect(await Widget.all(t.db.kysely)).toHaveLength(1);
      expect(await listJobs(t.db.kysely)).toHaveLength(1);
    },
  );
});

/** A port on 127.0.0.1 that nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("an enqueue with Redis (JOBS_URL) gone", () => {
  const t = jobsTestDatabase("sqlite", available.sqlite);
  afterEach(async () => {
    await redisJobs()?.close();
    vi.unstubAllEnvs();
    resetRedisJobs();
    vi.restoreAllMocks();
  });

  it("answers 503 naming JOBS_URL, and the request's record is not committed without its job", async () => {
    vi.stubEnv("JOBS_URL", `redis://127.0.0.1:${await closedPort()}/0`);
    resetRedisJobs();
    const logged: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((line) => logged.push(String(line)) > 0);
    const refused = await widgetsApp(t.db).fetch(post(false));
    expect(refused.status, await refused.clone().text()).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining("jobs") });
    expect(await Widget.all(t.db.kysely)).toEqual([]);
    // Once per outage, naming the setting.
    expect(logged.filter((line) => line.includes('"jobs unavailable"'))).toHaveLength(1);
    expect(logged.join("")).toContain("JOBS_URL (redis://127.0.0.1:");
  });
});
