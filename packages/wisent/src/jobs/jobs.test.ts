import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
import { isHttpError } from "../base/http-error.js";
import { isWisentError } from "../base/wisent-error.js";
import type { Database } from "../data/database.js";
import { availableDialects, DIALECTS } from "../data/test-support/test-databases.js";
import { Widget } from "../data/test-support/widget.js";
import { silentLogger } from "../http/logger.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { defineJob, type Job } from "./define-job.js";
import { claimJobs, listJobs } from "./job-store.js";
import { JobWorker } from "./job-worker.js";
import { JOBS_TABLE, type JobRow } from "./jobs-table.js";
import { RecurringScheduler, recurringTask } from "./recurring.js";
import { jobsTestDatabase } from "./test-support/jobs-database.js";

installAllContextMethods();
const available = await availableDialects();

const SendDigest = defineJob({
  name: "send_digest",
  payload: z.object({ email: z.email() }),
  perform() {},
});

/** Resolves once `predicate` holds, checking every 20 ms (the test's own timeout bounds it). */
async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, 20));
}

function workerOf(db: Database, jobs: Job[], options = {}) {
  return new JobWorker({
    db: db.kysely,
    jobs: new Map(jobs.map((job) => [job.name, job])),
    pollIntervalMs: 20,
    logger: silentLogger,
    ...options,
  });
}

describe("defineJob and enqueue without a database", () => {
  it("refuses a payload that fails its schema, naming the field", async () => {
    const error = await SendDigest.enqueue(Promise.reject(new Error("not reached")), {
      email: "nope",
    }).catch((e: unknown) => e);
    expect(isWisentError(error, "E_JOB_PAYLOAD_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(
      /job send_digest: the payload given to enqueue is invalid: email: /,
    );
  });

  it("refuses a payload JSON cannot carry, as a worker would read it", async () => {
    const At = defineJob({ name: "at", payload: z.object({ at: z.date() }), perform() {} });
    await expect(At.enqueue(Promise.reject(new Error("x")), { at: new Date() })).rejects.toThrow(
      /at: /,
    );
  });

  it("refuses a bad name, queue and attempts at declaration", () => {
    const payload = z.object({});
    expect(() => defineJob({ name: "9lives", payload, perform() {} })).toThrow(/name must start/);
    expect(() => defineJob({ name: "x", payload, queue: "a b", perform() {} })).toThrow(/queue/);
    expect(() => defineJob({ name: "x", payload, attempts: 0, perform() {} })).toThrow(/attempts/);
  });
});

describe.each(DIALECTS)("jobs on %s", (dialect) => {
  const t = jobsTestDatabase(dialect, available[dialect]);
  const run = it.skipIf(!available[dialect]);
  afterEach(() => vi.restoreAllMocks());
  const rows = () => listJobs(t.db.kysely);

  /** An app whose POST /widgets creates a widget and enqueues a digest, then answers `status`. */
  function app() {
    const hono = new Hono();
    hono.onError((err, c) =>
      c.json({ error: err.message }, (isHttpError(err) ? err.status : 500) as ContentfulStatusCode),
    );
    hono.use(transaction(t.db));
    hono.post("/widgets/:then", async (c) => {
      const body = await c.req.json();
      await Widget.create(await c.tx(), { title: body.title });
      await SendDigest.enqueue(c.tx(), { email: body.email });
      const then = c.req.param("then");
      if (then === "throw") throw new Error("boom");
      return c.json({}, Number(then) as ContentfulStatusCode);
    });
    return hono;
  }
  const post = (then: string) =>
    new Request(`http://localhost/widgets/${then}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Gear", email: "ada@example.com" }),
    });

  run(
    "a request that commits leaves its job; one that answers 422 or throws leaves none",
    async () => {
      const hono = app();
      vi.spyOn(console, "error").mockImplementation(() => {});
      expect((await hono.fetch(post("422"))).status).toBe(422);
      expect((await hono.fetch(post("throw"))).status).toBe(500);
      expect(await rows()).toEqual([]);
      expect((await hono.fetch(post("201"))).status).toBe(201);
      const [job] = await rows();
      expect(job).toMatchObject({
        name: "send_digest",
        state: "queued",
        queue: "default",
        attempts: 0,
      });
      expect(JSON.parse(job!.payload)).toEqual({ email: "ada@example.com" });
      expect(await Widget.all(t.db.kysely)).toHaveLength(1);
    },
  );

  run("outside a request, enqueueing commits on its own (the Database or its Kysely)", async () => {
    const one = await SendDigest.enqueue(t.db, { email: "a@example.com" });
    const two = await SendDigest.enqueue(t.db.kysely, { email: "b@example.com" }, { delay: "1h" });
    expect(one.enqueued && two.enqueued).toBe(true);
    const found = await rows();
    expect(found.map((r) => r.id).sort()).toEqual([one.id, two.id].sort());
    const later = found.find((r) => r.id === two.id)!;
    expect(later.run_at - later.created_at).toBe(3_600_000);
  });

  run(
    "a unique key already waiting makes enqueue a no-op that says so, until the job ends",
    async () => {
      const key = { uniqueKey: "digest:ada" };
      const first = await SendDigest.enqueue(t.db, { email: "a@example.com" }, key);
      const again = await SendDigest.enqueue(t.db, { email: "a@example.com" }, key);
      expect(again).toEqual({ id: first.id, enqueued: false });
      expect(await rows()).toHaveLength(1);
      // Taken by a worker: still held.
      await claimJobs(t.db.kysely, {
        queues: [],
        limit: 1,
        token: "w/1",
        now: Date.now(),
        leaseMs: 1000,
      });
      expect((await SendDigest.enqueue(t.db, { email: "a@example.com" }, key)).enqueued).toBe(
        false,
      );
      // Done: free again.
      await t.db.kysely.deleteFrom(JOBS_TABLE).execute();
      expect((await SendDigest.enqueue(t.db, { email: "a@example.com" }, key)).enqueued).toBe(true);
    },
  );

  run("keeps keys unique in a jobs table made before its key index was partial", async () => {
    // Tables migrated by an earlier version have a full unique index on unique_key.
    await sql`drop index ${sql.id(`${JOBS_TABLE}_unique_key_idx`)}${dialect === "mysql" ? sql` on ${sql.id(JOBS_TABLE)}` : sql``}`.execute(
      t.db.kysely,
    );
    await t.db.kysely.schema
      .createIndex(`${JOBS_TABLE}_unique_key_idx`)
      .on(JOBS_TABLE)
      .column("unique_key")
      .unique()
      .execute();
    const key = { uniqueKey: "digest:old" };
    const first = await SendDigest.enqueue(t.db, { email: "a@example.com" }, key);
    expect(await SendDigest.enqueue(t.db, { email: "a@example.com" }, key)).toEqual({
      id: first.id,
      enqueued: false,
    });
    expect((await SendDigest.enqueue(t.db, { email: "b@example.com" })).enqueued).toBe(true);
  });

  run("a unique key in a request that rolls back is not taken", async () => {
    const hono = new Hono();
    hono.use(transaction(t.db));
    hono.post("/", async (c) => {
      await SendDigest.enqueue(c.tx(), { email: "a@example.com" }, { uniqueKey: "k" });
      return c.json({}, 422);
    });
    expect((await hono.request("/", { method: "POST" })).status).toBe(422);
    expect(
      (await SendDigest.enqueue(t.db, { email: "a@example.com" }, { uniqueKey: "k" })).enqueued,
    ).toBe(true);
  });

  run("claims due jobs by priority, then time; never a job due later", async () => {
    const now = Date.now();
    const low = await SendDigest.enqueue(t.db, { email: "l@example.com" });
    const high = await SendDigest.enqueue(t.db, { email: "h@example.com" }, { priority: 5 });
    await SendDigest.enqueue(t.db, { email: "f@example.com" }, { runAt: new Date(now + 60_000) });
    const claimed = await claimJobs(t.db.kysely, {
      queues: ["default"],
      limit: 10,
      token: "w/1",
      now: Date.now(),
      leaseMs: 1000,
    });
    expect(claimed.map((r) => r.id)).toEqual([high.id, low.id]);
    expect(
      claimed.every((r) => r.state === "running" && r.attempts === 1 && r.locked_by === "w/1"),
    ).toBe(true);
    const other = await claimJobs(t.db.kysely, {
      queues: ["mail"],
      limit: 10,
      token: "w/2",
      now: Date.now(),
      leaseMs: 1000,
    });
    expect(other).toEqual([]);
  });

  run("two workers perform 60 jobs, each exactly once", async () => {
    const seen: number[] = [];
    const Count = defineJob({
      name: "count",
      payload: z.object({ n: z.number() }),
      async perform({ n }) {
        seen.push(n);
        await new Promise((r) => setTimeout(r, 1));
      },
    });
    for (let n = 0; n < 60; n++) await Count.enqueue(t.db, { n });
    const a = workerOf(t.db, [Count], { concurrency: 3 });
    const b = workerOf(t.db, [Count], { concurrency: 3 });
    a.start();
    b.start();
    await until(async () => (await rows()).length === 0);
    await Promise.all([a.stop(), b.stop()]);
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  run("retries a failure after an exponential backoff, keeping its error and stack", async () => {
    let calls = 0;
    const Flaky = defineJob({
      name: "flaky",
      payload: z.object({}),
      attempts: 3,
      backoff: { base: "1h", max: "10h" },
      perform() {
        calls += 1;
        throw new Error(`SMTP 421 try ${calls}`);
      },
    });
    const { id } = await Flaky.enqueue(t.db, {});
    const worker = workerOf(t.db, [Flaky]);
    const before = Date.now();
    worker.start();
    await until(
      async () => (await rows())[0]?.attempts === 1 && (await rows())[0]?.state === "queued",
    );
    await worker.stop();
    const [row] = await rows();
    expect(row!.last_error).toMatch(/^Error: SMTP 421 try 1\n\s+at /);
    // 1 hour after the first failure, with jitter in its upper half.
    expect(row!.run_at).toBeGreaterThanOrEqual(before + 1_800_000);
    expect(row!.run_at).toBeLessThanOrEqual(Date.now() + 3_600_000);
    // The retry time comes: due again; the second failure waits twice as long.
    await t.db.kysely.updateTable(JOBS_TABLE).set({ run_at: 0 }).where("id", "=", id).execute();
    const again = workerOf(t.db, [Flaky]);
    again.start();
    await until(
      async () => (await rows())[0]?.attempts === 2 && (await rows())[0]?.state === "queued",
    );
    await again.stop();
    const [second] = await rows();
    // 2 hours after the second, in its upper half.
    expect(second!.run_at).toBeGreaterThanOrEqual(Date.now() + 3_600_000 - 60_000);
    expect(second!.run_at).toBeLessThanOrEqual(Date.now() + 7_200_000);
    expect(second!.last_error).toMatch(/SMTP 421 try 2/);
  });

  run("keeps a job that failed its last attempt as failed, its unique key freed", async () => {
    const Broken = defineJob({
      name: "broken",
      payload: z.object({}),
      attempts: 2,
      backoff: { base: 0 },
      perform() {
        throw new TypeError("nope");
      },
    });
    await Broken.enqueue(t.db, {}, { uniqueKey: "only" });
    const worker = workerOf(t.db, [Broken]);
    worker.start();
    await until(async () => (await rows())[0]?.state === "failed");
    await worker.stop();
    const [row] = await rows();
    expect(row).toMatchObject({ state: "failed", attempts: 2, unique_key: null, locked_by: null });
    expect(row!.last_error).toMatch(/^TypeError: nope\n/);
    expect(row!.failed_at).toBeGreaterThan(0);
    expect((await Broken.enqueue(t.db, {}, { uniqueKey: "only" })).enqueued).toBe(true);
  });

  run(
    "fails a job whose payload no longer fits its schema at once, and retries an unknown name",
    async () => {
      const Old = defineJob({ name: "shape", payload: z.object({ a: z.string() }), perform() {} });
      const New = defineJob({ name: "shape", payload: z.object({ b: z.string() }), perform() {} });
      await Old.enqueue(t.db, { a: "x" });
      const Gone = defineJob({ name: "gone", payload: z.object({}), perform() {} });
      await Gone.enqueue(t.db, {});
      const worker = workerOf(t.db, [New]);
      worker.start();
      await until(async () =>
        (await rows()).every((r) => r.attempts === 1 && r.state !== "running"),
      );
      await worker.stop();
      const byName = Object.fromEntries((await rows()).map((r) => [r.name, r]));
      expect(byName.shape).toMatchObject({ state: "failed", attempts: 1 });
      expect(byName.shape!.last_error).toMatch(/the payload read back to perform is invalid: b: /);
      expect(byName.gone).toMatchObject({ state: "queued" });
      expect(byName.gone!.last_error).toMatch(/no job named "gone" is registered/);
    },
  );

  run(
    "a stopping worker lets a short job finish and gives a long one back to the queue",
    async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let aborted = false;
      const Slow = defineJob({
        name: "slow",
        payload: z.object({ wait: z.boolean() }),
        async perform({ wait }, job) {
          job.signal.addEventListener("abort", () => {
            aborted = true;
          });
          if (wait) await new Promise(() => {});
          await gate;
        },
      });
      const short = await Slow.enqueue(t.db, { wait: false });
      const long = await Slow.enqueue(t.db, { wait: true });
      const worker = workerOf(t.db, [Slow]);
      worker.start();
      await until(() => worker.busy === 2);
      const stopped = worker.stop(300);
      release();
      expect(await stopped).toEqual({ finished: 1, released: 1 });
      expect(aborted).toBe(true);
      const left = await rows();
      expect(left.map((r) => r.id)).toEqual([long.id]);
      expect(left[0]).toMatchObject({ state: "queued", attempts: 0, locked_by: null });
      expect(left.some((r) => r.id === short.id)).toBe(false);
    },
  );

  run(
    "a worker killed with SIGKILL mid-job leaves the job to another worker after its lease",
    async () => {
      const Hang = defineJob({ name: "hang", payload: z.object({ n: z.number() }), perform() {} });
      const { id } = await Hang.enqueue(t.db, { n: 1 });
      const script = fileURLToPath(new URL("./test-support/child-worker.ts", import.meta.url));
      const child = spawn(process.execPath, ["--import", "tsx", script, t.url, "1000"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => {
        output += chunk;
      });
      child.stderr.on("data", (chunk) => {
        output += chunk;
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        await until(() => output.includes(`started ${id}`) || child.exitCode !== null);
        expect(output).toContain(`started ${id}`);
      } finally {
        child.kill("SIGKILL");
      }
      await exited;
      expect((await rows())[0]).toMatchObject({ id, state: "running", attempts: 1 });
      let performedBy: number | undefined;
      const Done = defineJob({
        name: "hang",
        payload: z.object({ n: z.number() }),
        perform(_payload, job) {
          performedBy = job.attempt;
        },
      });
      const worker = workerOf(t.db, [Done], { leaseMs: 1000 });
      worker.start();
      await until(() => performedBy !== undefined);
      await worker.stop();
      expect(performedBy).toBe(2);
      expect(await rows()).toEqual([]);
    },
    30_000,
  );

  run(
    "a recurring task is enqueued once per tick across schedulers; its first tick only recorded",
    async () => {
      const Prune = defineJob({ name: "prune", payload: z.object({}), perform() {} });
      const task = () => recurringTask(Prune, { every: "1h" });
      const a = new RecurringScheduler([task()]);
      const b = new RecurringScheduler([task()]);
      const hour = 3_600_000;
      const t0 = 1000 * hour + 5;
      expect(await a.enqueueDue(t.db.kysely, t0)).toBe(0); // recorded
      expect(await b.enqueueDue(t.db.kysely, t0 + 10)).toBe(0);
      const next = [a.enqueueDue(t.db.kysely, t0 + hour), b.enqueueDue(t.db.kysely, t0 + hour + 1)];
      expect((await Promise.all(next)).sort()).toEqual([0, 1]);
      expect(await a.enqueueDue(t.db.kysely, t0 + hour + 60_000)).toBe(0);
      // A scheduler that starts later (a new process) sees the tick taken.
      expect(await new RecurringScheduler([task()]).enqueueDue(t.db.kysely, t0 + hour + 2)).toBe(0);
      expect(await b.enqueueDue(t.db.kysely, t0 + 2 * hour)).toBe(1);
      expect((await rows()).map((r: JobRow) => r.name)).toEqual(["prune", "prune"]);
    },
  );

  run("a worker that cannot take jobs retries, logging once per change of state", async () => {
    const logged: string[] = [];
    const logger = {
      info: (e: { msg: string }) => logged.push(`info ${e.msg}`),
      warn: (e: { msg: string }) => logged.push(`warn ${e.msg}`),
      error: (e: { msg: string }) => logged.push(`error ${e.msg}`),
    };
    const Count = defineJob({ name: "count", payload: z.object({}), perform() {} });
    const worker = workerOf(t.db, [Count], { logger });
    // The table goes away (a restore, migrations rolled back): every poll fails the same way.
    await t.db.kysely.schema.alterTable(JOBS_TABLE).renameTo("wisent_jobs_away").execute();
    worker.start();
    try {
      await until(() => logged.length > 0);
      await new Promise((r) => setTimeout(r, 300)); // several failed polls, with backoff
      expect(logged).toEqual([
        expect.stringMatching(
          /^error jobs: cannot take jobs, retrying with backoff: .*wisent migrate/,
        ),
      ]);
      await t.db.kysely.schema.alterTable("wisent_jobs_away").renameTo(JOBS_TABLE).execute();
      await Count.enqueue(t.db, {});
      await until(async () => (await rows()).length === 0);
      expect(logged).toEqual([
        expect.stringMatching(/^error jobs: cannot take jobs/),
        "info jobs: the database answers again; taking jobs",
      ]);
    } finally {
      await worker.stop();
    }
  });

  run("a missing jobs table says to run wisent migrate", async () => {
    await t.db.kysely.schema.dropTable(JOBS_TABLE).execute();
    try {
      const error = await SendDigest.enqueue(t.db, { email: "a@example.com" }).catch((e) => e);
      expect(isWisentError(error, "E_JOBS_TABLE_MISSING")).toBe(true);
      expect(error.message).toMatch(/wisent migrate/);
    } finally {
      const { createJobTables, JOB_SCHEDULES_TABLE } = await import("./jobs-table.js");
      await t.db.kysely.schema.dropTable(JOB_SCHEDULES_TABLE).execute();
      await createJobTables(t.db.kysely);
    }
  });
});

describe("recurringTask", () => {
  const Job = defineJob({ name: "tick", payload: z.object({ kind: z.string() }), perform() {} });
  it("ticks on multiples of `every` and at a cron expression's times (UTC)", () => {
    const hourly = recurringTask(Job, { every: "1h", payload: { kind: "a" } });
    expect(hourly.tickAt(Date.parse("2026-01-01T10:59:59Z"))).toBe(
      Date.parse("2026-01-01T10:00:00Z"),
    );
    const daily = recurringTask(Job, { cron: "30 3 * * *", payload: { kind: "a" } });
    expect(daily.tickAt(Date.parse("2026-01-02T03:29:00Z"))).toBe(
      Date.parse("2026-01-01T03:30:00Z"),
    );
    expect(daily.tickAt(Date.parse("2026-01-02T03:30:00Z"))).toBe(
      Date.parse("2026-01-02T03:30:00Z"),
    );
  });
  it("refuses a schedule that is not one, naming the job", () => {
    expect(() => recurringTask(Job, { payload: { kind: "a" } })).toThrow(
      /app.job\(tick, ...\): a schedule takes either/,
    );
    expect(() => recurringTask(Job, { cron: "nope", payload: { kind: "a" } })).toThrow(
      /is not a cron expression/,
    );
    expect(() => recurringTask(Job, { every: "1h" })).toThrow(/kind: /);
  });
});
