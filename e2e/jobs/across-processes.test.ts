/**
 * Slow (minutes): background jobs across processes, as an app runs them in production. An API app
 * is made as a user makes it (`wisent new --api`, `wisent g r post title:uniq`, `wisent g job
 * record_post title:string`, `wisent g job tick`), with the one edit the jobs guide shows: the
 * create enqueues its job through the request's transaction, before the insert that may refuse
 * the title. Then, per engine, web processes take 5,000 creates over HTTP and two
 * `wisent jobs work` processes perform the jobs, one of them killed with SIGKILL in the middle:
 * - every create answered 201 has its job performed at least once, none is lost;
 * - the only jobs performed twice are jobs the killed worker had started (at most its concurrency);
 * - the creates answered 422 (a title taken) left no job;
 * - the recurring task (every second) ran at most once per tick while both workers scheduled it.
 * PostgreSQL: three `wisent start`; SQLite: `wisent start --workers 3`; Redis (BullMQ, JOBS_URL):
 * three `wisent start` on PostgreSQL. Each engine is skipped when its service is not running.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  inApp,
  newApp,
  wisent,
} from "../../packages/wisent/src/cli/generate/test-support/generated-app.js";
import { openDatabase } from "../../packages/wisent/src/data/database.js";
import { availableDialects } from "../../packages/wisent/src/data/test-support/test-databases.js";
import {
  type ServerProcess,
  startServerProcess,
  startWisent,
  WISENT_CLI,
} from "../support/server.js";

const MINUTES = 60_000;
const CREATES = Number(process.env.JOBS_E2E_CREATES ?? 5_000);
const TAKEN_REPEATS = 100;
const CONCURRENCY = 4;
const REDIS_URL = "redis://127.0.0.1:6379/5";

const available = await availableDialects();
const redisUp = await (async () => {
  try {
    const { Redis } = await import("ioredis");
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await redis.connect();
    await redis.flushdb();
    redis.disconnect();
    return true;
  } catch {
    return false;
  }
})();

let root: string;
let app: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-jobs-e2e-"));
  app = await newApp(root, "notes", ["--api"]);
  await wisent(app, ["g", "r", "post", "title:uniq"]);
  await wisent(app, ["g", "job", "record_post", "title:string"]);
  await wisent(app, ["g", "job", "tick"]);
  // perform, as a user writes it: append what ran, and where, to the file JOBS_LOG names.
  edit("src/jobs/record_post.ts", /async perform\(payload, job\) \{[\s\S]*?\n {2}\},/, [
    "async perform(payload, job) {",
    '    const { appendFileSync } = await import("node:fs");',
    '    const line = ["post", payload.title, process.pid, job.attempt].join(" ");',
    '    appendFileSync(process.env.JOBS_LOG ?? "", line + "\\n");',
    "  },",
  ]);
  edit("src/jobs/tick.ts", /async perform\(payload, job\) \{[\s\S]*?\n {2}\},/, [
    "async perform() {",
    '    const { appendFileSync } = await import("node:fs");',
    '    appendFileSync(process.env.JOBS_LOG ?? "", ["tick", Date.now(), process.pid].join(" ") + "\\n");',
    "  },",
  ]);
  edit("src/app.ts", /app\.job\(Tick\);/, ['app.job(Tick, { every: "1s" });']);
  // The guide's enqueue, before the insert that may refuse the title (and roll it back).
  edit(
    "src/actions/posts.ts",
    /(async create\(c: RouteContext\)[^{]*\{\n\s+const input = await c\.bind\(\);)/,
    ["$1", "    await RecordPost.enqueue(await c.tx(), { title: String(input.title) });"],
  );
  const actions = readFileSync(join(app, "src/actions/posts.ts"), "utf8");
  writeFileSync(
    join(app, "src/actions/posts.ts"),
    `import { RecordPost } from "../jobs/record_post.js";\n${actions}`,
  );
  const built = await inApp(app, WISENT_CLI, ["build"]);
  expect(built.code, built.output).toBe(0);
}, 5 * MINUTES);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function edit(file: string, pattern: RegExp, lines: string[]): void {
  const path = join(app, file);
  const source = readFileSync(path, "utf8");
  expect(source, `${file} has ${pattern}`).toMatch(pattern);
  writeFileSync(path, source.replace(pattern, lines.join("\n")));
}

interface Engine {
  readonly name: string;
  readonly up: boolean;
  /** The database (and jobs) settings, made fresh for the run. */
  settings(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
  /** The web processes: three, or one with --workers 3. */
  readonly web: "processes" | "workers";
}

async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `wisent_jobs_e2e_${process.pid}_${Date.now()}`;
  const admin = await openDatabase("postgres://postgres@127.0.0.1:5432/test", { poolSize: 1 });
  await sql`create database ${sql.id(name)}`.execute(admin.kysely);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    async drop() {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.kysely);
      await admin.close();
    },
  };
}

const ENGINES: Engine[] = [
  {
    name: "PostgreSQL (three web processes)",
    up: available.postgres,
    web: "processes",
    async settings() {
      const db = await postgresDatabase();
      return { env: { DATABASE_URL: db.url }, drop: db.drop };
    },
  },
  {
    name: "SQLite (wisent start --workers 3)",
    up: true,
    web: "workers",
    async settings() {
      const dir = mkdtempSync(join(tmpdir(), "wisent-jobs-e2e-db-"));
      return {
        env: { DATABASE_URL: `sqlite:${join(dir, "jobs.sqlite")}` },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "Redis with BullMQ (three web processes on PostgreSQL)",
    up: available.postgres && redisUp,
    web: "processes",
    async settings() {
      const db = await postgresDatabase();
      return { env: { DATABASE_URL: db.url, JOBS_URL: REDIS_URL }, drop: db.drop };
    },
  },
];

/** Sends `count` requests, `parallel` at a time, spread over the servers' URLs. */
async function pool(count: number, parallel: number, send: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

async function until(what: string, predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(ENGINES)("jobs across processes on $name", (engine) => {
  it.skipIf(!engine.up)(
    `performs every committed create's job at least once through a SIGKILL (${CREATES} creates)`,
    async () => {
      const { env: dbEnv, drop } = await engine.settings();
      const log = join(root, `jobs-${Date.now()}.log`);
      writeFileSync(log, "");
      const env = { ...dbEnv, JOBS_LOG: log, GO_ENV: "development", NODE_ENV: "development" };
      const processes: ServerProcess[] = [];
      try {
        const migrated = await inApp(app, WISENT_CLI, ["migrate"], env);
        expect(migrated.code, migrated.output).toBe(0);
        const webCount = engine.web === "processes" ? 3 : 1;
        for (let i = 0; i < webCount; i++) {
          processes.push(
            await startWisent(app, {
              env,
              ...(engine.web === "workers" ? { args: ["--workers", "3"] } : {}),
            }),
          );
        }
        const web = processes.slice();
        const worker = () =>
          startServerProcess({
            args: [WISENT_CLI, "jobs", "work", "--concurrency", String(CONCURRENCY)],
            cwd: app,
            env,
            ready: /working: .* \((\d+)\)/,
            url: "http://127.0.0.1:1",
          });
        const lines = () => readFileSync(log, "utf8").split("\n").filter(Boolean);
        const posts = () => lines().filter((l) => l.startsWith("post "));

        const create = async (title: string, at: ServerProcess) =>
          (
            await fetch(`${at.url}/posts`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json" },
              body: JSON.stringify({ title }),
            })
          ).status;
        expect(await create("taken", web[0]!)).toBe(201);
        const [first, second] = [await worker(), await worker()];
        processes.push(first, second);
        await until("the first job", () => posts().length >= 1, MINUTES);
        const ticksFrom = Date.now();

        const statuses: Record<number, number> = {};
        const created: string[] = [];
        let killedPid = 0;
        const total = CREATES + TAKEN_REPEATS;
        await pool(total, 16, async (i) => {
          const taken = i % Math.ceil(total / TAKEN_REPEATS) === 0;
          const title = taken ? "taken" : `post-${i}`;
          const status = await create(title, web[i % web.length]!);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status === 201) created.push(title);
          // In the middle: the first worker dies as a crash kills it, with jobs in hand.
          if (killedPid === 0 && i >= total / 2) {
            killedPid = first.pid;
            first.child.kill("SIGKILL");
          }
        });
        expect(statuses[422]).toBeGreaterThanOrEqual(TAKEN_REPEATS - 1);
        expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
        expect(created.length + (statuses[422] ?? 0)).toBe(total);

        // A killed worker's jobs come back once their lease (30 s) or BullMQ's stall check runs out.
        const wanted = new Set(["taken", ...created]);
        const performed = () => new Set(posts().map((l) => l.split(" ")[1]));
        await until(
          `every job performed (${wanted.size})`,
          () => performed().size >= wanted.size,
          3 * MINUTES,
        );
        const ticksTo = Date.now();
        // Let anything still running finish, then read the log once more.
        await new Promise((r) => setTimeout(r, 1_000));
        const byTitle = new Map<string, string[]>();
        for (const line of posts()) {
          const [, title, pid] = line.split(" ");
          byTitle.set(title!, [...(byTitle.get(title!) ?? []), pid!]);
        }
        expect([...wanted].filter((t) => !byTitle.has(t))).toEqual([]);
        expect([...byTitle.keys()].filter((t) => !wanted.has(t))).toEqual([]);
        // "taken" was created once: its 422s enqueued in transactions that rolled back.
        expect(byTitle.get("taken")).toHaveLength(1);
        const twice = [...byTitle].filter(([, pids]) => pids.length > 1);
        for (const [title, pids] of twice) {
          expect(pids.length, title).toBe(2);
          expect(pids, `${title} ran twice, once in the killed worker`).toContain(
            String(killedPid),
          );
        }
        expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);

        // Both workers scheduled the tick every second: it ran at most once a second.
        const ticks = lines()
          .filter((l) => l.startsWith("tick "))
          .map((l) => Number(l.split(" ")[1]))
          .filter((at) => at >= ticksFrom && at <= ticksTo);
        const seconds = Math.ceil((ticksTo - ticksFrom) / 1000);
        expect(ticks.length).toBeGreaterThan(0);
        expect(ticks.length).toBeLessThanOrEqual(seconds + 2);
        console.log(
          `[jobs e2e] ${engine.name}: ${JSON.stringify({ statuses, performed: byTitle.size, twice: twice.length, ticks: ticks.length, seconds })}`,
        );
      } finally {
        await Promise.all(processes.map((p) => p.stop("SIGKILL")));
        await drop();
      }
    },
    10 * MINUTES,
  );
});
