/**
 * Background jobs benchmark (run `npm run build` first), four measures in one run:
 * 1. the cost of a create that also enqueues a job, against the same create without (goal: at
 *    most 1.3x), through the App, the transaction middleware and the model, on SQLite and on
 *    PostgreSQL when reachable (WISENT_BENCH_POSTGRES_URL, default the local test server);
 * 2. jobs performed per second by Wisent's worker at concurrency 8 (no-op jobs), on the same
 *    databases, and on Redis against BullMQ used directly with the same concurrency (goal:
 *    at least 0.8x);
 * 3. enqueue-to-start latency, p50 and p99, of jobs enqueued one at a time while a worker runs
 *    (in the same process: the worker is woken, it does not wait for its poll);
 * 4. memory over JOBS_BENCH_TOTAL jobs (default 100,000) on SQLite: heap after a collection at
 *    each tenth, flat within 10%.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "kysely";
import { App, defineModel } from "wisent";
import { migrateUp, openDatabase } from "wisent/db";
import { createJobTables, defineJob } from "wisent/jobs";
import { transaction } from "wisent/middleware";
import { z } from "zod";
import { interleave } from "../lib/measure.mjs";
import { reachable } from "../load/lib/servers.mjs";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const MIGRATIONS = new URL("../data/migrations", import.meta.url).pathname;
const POSTGRES = process.env.WISENT_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const TOTAL = Number(process.env.JOBS_BENCH_TOTAL ?? 100_000);
const CONCURRENCY = 8;
const silent = { info() {}, warn() {}, error() {} };

const Widget = defineModel({ table: "widgets", schema: z.object({ title: z.string().min(1) }) });

/** A fresh database (a temp SQLite file, or a `jobs_bench_*` PostgreSQL database) with the tables. */
async function fresh(dialect) {
  const name = `jobs_bench_${randomBytes(4).toString("hex")}`;
  if (dialect === "sqlite") {
    const dir = await mkdtemp(join(tmpdir(), "wisent-jobs-bench-"));
    const db = await openDatabase(`sqlite:${join(dir, "bench.sqlite")}`);
    await migrateUp(db, MIGRATIONS);
    await createJobTables(db.kysely);
    const drop = async () => {
      await db.close();
      await rm(dir, { recursive: true });
    };
    return { db, drop };
  }
  const admin = await openDatabase(POSTGRES, { poolSize: 1 });
  await sql.raw(`create database ${name}`).execute(admin.kysely);
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  const db = await openDatabase(url.href, { poolSize: 10 });
  await migrateUp(db, MIGRATIONS);
  await createJobTables(db.kysely);
  return {
    db,
    drop: async () => {
      await db.close();
      await sql.raw(`drop database ${name}`).execute(admin.kysely);
      await admin.close();
    },
  };
}

const performed = { count: 0, latencies: [] };
const Noop = defineJob({
  name: "noop",
  payload: z.object({ at: z.number() }),
  perform({ at }) {
    performed.count += 1;
    if (at > 0) performed.latencies.push(performance.timeOrigin + performance.now() - at);
  },
});

function appOf(db) {
  const app = new App({ name: "bench", env: "test" });
  app.use(transaction(db));
  app.jobs(db);
  app.job(Noop);
  app.post("/plain", async (c) => {
    await Widget.create(await c.tx(), { title: "gear" });
    return c.json({}, 201);
  });
  app.post("/enqueue", async (c) => {
    await Widget.create(await c.tx(), { title: "gear" });
    await Noop.enqueue(c.tx(), { at: 0 });
    return c.json({}, 201);
  });
  return app;
}

async function until(predicate) {
  while (!predicate()) await new Promise((r) => setTimeout(r, 5));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function enqueueCost(db, app) {
  const post = (path) => app.fetch(new Request(`http://localhost${path}`, { method: "POST" }));
  const result = await interleave(
    {
      plain: async (n) => {
        for (let i = 0; i < n; i++) await post("/plain");
      },
      enqueue: async (n) => {
        for (let i = 0; i < n; i++) await post("/enqueue");
      },
    },
    { rounds: 5, iterations: 1000 },
  );
  await db.kysely.deleteFrom("wisent_jobs").execute();
  return result;
}

async function throughput(db, app) {
  const n = 5000;
  for (let i = 0; i < n; i += 500) {
    await db.kysely.transaction().execute(async (trx) => {
      for (let j = 0; j < 500; j++) await Noop.enqueue(trx, { at: 0 });
    });
  }
  performed.count = 0;
  const worker = app.backgroundJobs.worker({
    concurrency: CONCURRENCY,
    logger: silent,
    pollIntervalMs: 50,
  });
  const start = performance.now();
  worker.start();
  await until(() => performed.count >= n);
  const seconds = (performance.now() - start) / 1000;
  await worker.stop();
  return n / seconds;
}

async function latency(db, app) {
  performed.latencies = [];
  performed.count = 0;
  const worker = app.backgroundJobs.worker({ concurrency: CONCURRENCY, logger: silent });
  worker.start();
  const n = 1000;
  for (let i = 0; i < n; i++) {
    await Noop.enqueue(db, { at: performance.timeOrigin + performance.now() });
    await new Promise((r) => setTimeout(r, 2));
  }
  await until(() => performed.count >= n);
  await worker.stop();
  return { p50: percentile(performed.latencies, 50), p99: percentile(performed.latencies, 99) };
}

async function memory(db, app) {
  const batch = TOTAL / 10;
  const worker = app.backgroundJobs.worker({
    concurrency: CONCURRENCY,
    logger: silent,
    pollIntervalMs: 20,
  });
  worker.start();
  const heaps = [];
  performed.count = 0;
  for (let b = 0; b < 10; b++) {
    for (let i = 0; i < batch; i += 500) {
      await db.kysely.transaction().execute(async (trx) => {
        for (let j = 0; j < 500; j++) await Noop.enqueue(trx, { at: 0 });
      });
    }
    await until(() => performed.count >= (b + 1) * batch);
    gc();
    heaps.push(process.memoryUsage().heapUsed);
  }
  await worker.stop();
  return heaps;
}

async function bullmqThroughput() {
  const { Queue, Worker } = await import("bullmq");
  const url = "redis://127.0.0.1:6379/0";
  const n = 5000;
  const results = {};
  // BullMQ directly.
  {
    const name = `jobs_bench_${randomBytes(4).toString("hex")}`;
    const queue = new Queue(name, { connection: { url } });
    await queue.addBulk(
      Array.from({ length: n }, () => ({
        name: "noop",
        data: { at: 0 },
        opts: { removeOnComplete: true },
      })),
    );
    let done = 0;
    const start = performance.now();
    const worker = new Worker(
      name,
      async () => {
        done += 1;
      },
      { connection: { url }, concurrency: CONCURRENCY },
    );
    await until(() => done >= n);
    results.bullmq = n / ((performance.now() - start) / 1000);
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
  // Wisent on Redis (JOBS_URL, read once per process: this one was started with it), the same jobs.
  {
    const { db, drop } = await fresh("sqlite");
    const app = appOf(db);
    const Bench = defineJob({
      name: "noop_redis",
      queue: `jobs_bench_${randomBytes(4).toString("hex")}`,
      payload: z.object({ at: z.number() }),
      perform() {
        performed.count += 1;
      },
    });
    app.job(Bench);
    for (let i = 0; i < n; i++) await Bench.enqueue(db, { at: 0 });
    performed.count = 0;
    const worker = app.backgroundJobs.worker({
      queues: [Bench.queue],
      concurrency: CONCURRENCY,
      logger: silent,
    });
    const start = performance.now();
    worker.start();
    await until(() => performed.count >= n);
    results.wisent = n / ((performance.now() - start) / 1000);
    await worker.stop();
    const cleanup = new Queue(Bench.queue, { connection: { url }, prefix: "wisent" });
    await cleanup.obliterate({ force: true });
    await cleanup.close();
    await drop();
  }
  return results;
}

// The Redis measure runs in a process of its own, started with JOBS_URL (the engine is read once).
if (process.argv[2] === "--redis") {
  process.stdout.write(JSON.stringify(await bullmqThroughput()));
  process.exit(0);
}

const us = (ns) => `${(ns / 1000).toFixed(1)} us`;
console.log(
  `Node ${process.version}, concurrency ${CONCURRENCY}, ${new Date().toISOString().slice(0, 10)}\n`,
);
const dialects = ["sqlite", ...((await reachable(5432)) ? ["postgres"] : [])];
console.log(
  "| database | create | create + enqueue | ratio (wall) | ratio (CPU) | jobs/s (c=8) | latency p50 | p99 |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const dialect of dialects) {
  const { db, drop } = await fresh(dialect);
  try {
    const app = appOf(db);
    const cost = await enqueueCost(db, app);
    const rate = await throughput(db, app);
    const { p50, p99 } = await latency(db, app);
    console.log(
      `| ${dialect} | ${us(cost.plain.median)} | ${us(cost.enqueue.median)} | ${(cost.enqueue.median / cost.plain.median).toFixed(2)}x | ${(cost.enqueue.cpu / cost.plain.cpu).toFixed(2)}x | ${Math.round(rate)} | ${p50.toFixed(2)} ms | ${p99.toFixed(2)} ms |`,
    );
  } finally {
    await drop();
  }
}
if (await reachable(6379)) {
  const { execFileSync } = await import("node:child_process");
  const redis = JSON.parse(
    execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--redis"], {
      env: { ...process.env, JOBS_URL: "redis://127.0.0.1:6379/0" },
      encoding: "utf8",
    }),
  );
  console.log(
    `\nRedis, ${CONCURRENCY} at once, 5000 no-op jobs: BullMQ directly ${Math.round(redis.bullmq)}/s, Wisent on BullMQ ${Math.round(redis.wisent)}/s (${(redis.wisent / redis.bullmq).toFixed(2)}x)`,
  );
}
{
  const { db, drop } = await fresh("sqlite");
  try {
    const heaps = await memory(db, appOf(db));
    const mb = heaps.map((h) => (h / 1048576).toFixed(1));
    const first = heaps[1];
    const growth = Math.max(...heaps.slice(1)) / first;
    console.log(
      `\nMemory over ${TOTAL} jobs on SQLite (heap after each tenth, MB): ${mb.join(", ")}; largest / second tenth ${growth.toFixed(2)}x`,
    );
  } finally {
    await drop();
  }
}
console.log(`(load average ${(await import("node:os")).loadavg()[0].toFixed(1)} at the end)`);
