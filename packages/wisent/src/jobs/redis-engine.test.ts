import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
import { availableDialects, redisAvailable } from "../data/test-support/test-databases.js";
import { silentLogger } from "../http/logger.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { defineJob, type Job } from "./define-job.js";
import { listJobs } from "./job-store.js";
import { type RedisJobs, redisJobs, resetRedisJobs } from "./redis-engine.js";
import { jobsTestDatabase } from "./test-support/jobs-database.js";

installAllContextMethods();
const available = await availableDialects();
const redisUp = await redisAvailable();
if (!redisUp) console.warn("SKIPPING the Redis jobs tests: no Redis on 127.0.0.1:6379");

async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, 20));
}

describe.skipIf(!redisUp)("jobs on Redis (JOBS_URL=redis://, BullMQ)", () => {
  const t = jobsTestDatabase("sqlite", available.sqlite);
  let queue: string;
  let engine: RedisJobs;
  beforeEach(() => {
    // A queue of this test's own: other processes share the Redis server.
    queue = `jobs_${randomBytes(6).toString("hex")}`;
    vi.stubEnv("JOBS_URL", "redis://127.0.0.1:6379/0");
    resetRedisJobs();
    engine = redisJobs()!;
  });
  afterEach(async () => {
    await engine.queue(queue).obliterate({ force: true });
    await engine.close();
    vi.unstubAllEnvs();
    resetRedisJobs();
  });

  function jobOf(name: string, perform: Job["perform"], settings: object = {}) {
    return defineJob({ name, payload: z.object({ n: z.number() }), queue, perform, ...settings });
  }

  it("adds a request's job after its commit, and none for a request that answered 422", async () => {
    const Count = jobOf("count", () => {});
    const app = new Hono();
    app.use(transaction(t.db));
    app.post("/:status", async (c) => {
      await Count.enqueue(c.tx(), { n: 1 });
      expect(await engine.queue(queue).count()).toBe(0); // not before the commit
      return c.json({}, Number(c.req.param("status")) as ContentfulStatusCode);
    });
    expect((await app.request("/422", { method: "POST" })).status).toBe(422);
    expect(await engine.queue(queue).count()).toBe(0);
    expect((await app.request("/201", { method: "POST" })).status).toBe(201);
    expect(await engine.queue(queue).count()).toBe(1);
    expect(await listJobs(t.db.kysely)).toEqual([]); // nothing in the database's table
  });

  it("a unique key waiting makes enqueue a no-op that says so", async () => {
    const Count = jobOf("count", () => {});
    const first = await Count.enqueue(t.db, { n: 1 }, { uniqueKey: "digest:ada" });
    expect(first.enqueued).toBe(true);
    expect((await Count.enqueue(t.db, { n: 2 }, { uniqueKey: "digest:ada" })).enqueued).toBe(false);
    expect(await engine.queue(queue).count()).toBe(1);
  });

  it("a worker performs jobs, retrying a failure with Wisent's backoff", async () => {
    const seen: string[] = [];
    const Flaky = jobOf(
      "flaky",
      ({ n }: { n: number }, job: { attempt: number }) => {
        seen.push(`${n}#${job.attempt}`);
        if (job.attempt < 3) throw new Error(`try ${job.attempt}`);
      },
      { attempts: 3, backoff: { base: 20, max: 100 } },
    );
    await Flaky.enqueue(t.db, { n: 7 });
    const worker = engine.worker({
      jobs: new Map([[Flaky.name, Flaky as unknown as Job]]),
      queues: [queue],
      concurrency: 2,
      recurring: [],
      logger: silentLogger,
    });
    worker.start();
    try {
      await until(() => seen.length === 3);
      await until(async () => (await engine.queue(queue).count()) === 0);
    } finally {
      await worker.stop(1000);
    }
    expect(seen).toEqual(["7#1", "7#2", "7#3"]);
  });

  it("refuses a JOBS_URL that is not Redis, naming it", () => {
    vi.stubEnv("JOBS_URL", "amqp://user:secret@host");
    resetRedisJobs();
    expect(() => redisJobs()).toThrow(
      /JOBS_URL must be unset .* or a redis:\/\/ URL .*, got "amqp:\/\/\*\*\*@host"/,
    );
  });
});
