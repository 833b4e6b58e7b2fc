/**
 * Jobs enqueued by HTTP creates, performed by two worker processes, one of which is killed with
 * SIGKILL in the middle: every job of a committed create is performed at least once, none is
 * lost, the only duplicates are jobs that were in flight in the killed worker, and the creates
 * that answered 422 left no job. On SQLite and PostgreSQL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
import { availableDialects } from "../data/test-support/test-databases.js";
import { Widget } from "../data/test-support/widget.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { defineJob } from "./define-job.js";
import { countJobs } from "./job-store.js";
import { jobsTestDatabase } from "./test-support/jobs-database.js";

installAllContextMethods();
const available = await availableDialects();
const script = fileURLToPath(new URL("./test-support/record-worker.ts", import.meta.url));
const JOBS = 600;
const CONCURRENCY = 4;

async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, 50));
}

describe.each(["sqlite", "postgres"] as const)("many processes on %s", (dialect) => {
  const t = jobsTestDatabase(dialect, available[dialect], { poolSize: 8 });
  const run = it.skipIf(!available[dialect]);
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
    if (available[dialect]) await sql`drop table if exists performed`.execute(t.db.kysely);
  });

  function worker(): { child: ChildProcess; ready: Promise<void> } {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", script, t.url, "1000", String(CONCURRENCY)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    const ready = new Promise<void>((resolve) =>
      child.stdout?.on("data", (chunk) => String(chunk).includes("ready") && resolve()),
    );
    return { child, ready };
  }

  run(
    `${JOBS} jobs from HTTP creates, two workers, one killed: none lost, 422s left none`,
    async () => {
      await sql`create table performed (n integer not null, pid integer not null)`.execute(
        t.db.kysely,
      );
      const Record = defineJob({
        name: "record",
        payload: z.object({ n: z.number() }),
        perform() {},
      });
      const app = new Hono();
      app.use(transaction(t.db));
      app.post("/widgets/:n", async (c) => {
        const n = Number(c.req.param("n"));
        await Widget.create(await c.tx(), { title: `w${n}` });
        await Record.enqueue(c.tx(), { n });
        // Every tenth create is refused after its writes: its job must not exist.
        return c.json({}, n % 10 === 9 ? 422 : 201);
      });
      const a = worker();
      const b = worker();
      await Promise.all([a.ready, b.ready]);
      const performed = async () =>
        Number(
          (await sql<{ c: number }>`select count(*) as c from performed`.execute(t.db.kysely))
            .rows[0]!.c,
        );
      let killedAt = -1;
      for (let n = 0; n < JOBS; n += 20) {
        const statuses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            Promise.resolve(app.request(`/widgets/${n + i}`, { method: "POST" })).then(
              (r) => r.status,
            ),
          ),
        );
        expect(statuses.filter((s) => s === 201)).toHaveLength(18);
        if (killedAt < 0 && n >= JOBS / 2 && (await performed()) > 50) {
          a.child.kill("SIGKILL");
          killedAt = n;
        }
      }
      if (killedAt < 0) {
        // A loaded machine: the workers had not started by the last create. Killed once they have.
        await until(async () => (await performed()) > 50);
        a.child.kill("SIGKILL");
        killedAt = JOBS;
      }
      expect(killedAt).toBeGreaterThan(0);
      const expected = Array.from({ length: JOBS }, (_, n) => n).filter((n) => n % 10 !== 9);
      await until(async () => {
        const counts = await countJobs(t.db.kysely);
        return counts.queued + counts.running === 0;
      });
      const rows = (await sql<{ n: number }>`select n from performed`.execute(t.db.kysely)).rows;
      const seen = new Map<number, number>();
      for (const { n } of rows) seen.set(Number(n), (seen.get(Number(n)) ?? 0) + 1);
      expect([...seen.keys()].sort((x, y) => x - y)).toEqual(expected);
      const duplicates = [...seen.values()].filter((times) => times > 1).length;
      expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
      expect((await countJobs(t.db.kysely)).failed).toBe(0);
    },
    120_000,
  );
});
