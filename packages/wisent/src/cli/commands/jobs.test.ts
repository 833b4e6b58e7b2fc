/**
 * `wisent jobs` (list, retry, discard) in-process, in a folder with a SQLite database holding
 * the jobs tables; `wisent jobs work` runs a built app (src/cli/generate/job.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, openDatabase } from "../../data/database.js";
import { defineJob } from "../../jobs/define-job.js";
import { claimJobs, failJob, listJobs } from "../../jobs/job-store.js";
import { createJobTables } from "../../jobs/jobs-table.js";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "wisent-jobs-cli-"));
  db = await openDatabase(`sqlite:${join(dir, "app.sqlite")}`);
  await createJobTables(db.kysely);
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function wisent(...argv: string[]) {
  const { io, stdout, stderr } = memoryIO({
    cwd: dir,
    env: { DATABASE_URL: `sqlite:${join(dir, "app.sqlite")}` },
  });
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

const Digest = defineJob({
  name: "send_digest",
  payload: z.object({ email: z.string() }),
  perform() {},
});

/** One waiting job and one that failed for good (its error with a stack). */
async function seed() {
  const waiting = await Digest.enqueue(db, { email: "a@example.com" });
  const failing = await Digest.enqueue(db, { email: "b@example.com" }, { priority: 9 });
  const [claimed] = await claimJobs(db.kysely, {
    queues: [],
    limit: 1,
    token: "w/1",
    now: Date.now(),
    leaseMs: 1000,
  });
  expect(claimed?.id).toBe(failing.id);
  await failJob(
    db.kysely,
    failing.id,
    "w/1",
    "Error: SMTP 550\n    at send",
    Date.now(),
    undefined,
  );
  return { waiting: waiting.id, failed: failing.id };
}

describe("wisent jobs", () => {
  it("lists the jobs with their state and last error, and counts them", async () => {
    const { waiting, failed } = await seed();
    const { code, stdout } = await wisent("jobs");
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+QUEUE\s+STATE\s+ATTEMPTS\s+RUN AT\s+ERROR$/);
    expect(lines.find((l) => l.startsWith(waiting))).toMatch(
      /send_digest\s+default\s+queued\s+0\/8/,
    );
    expect(lines.find((l) => l.startsWith(failed))).toMatch(
      /failed\s+1\/8\s+\S+\s+Error: SMTP 550$/,
    );
    expect(lines.at(-1)).toBe("1 queued, 0 running, 1 failed");
  });

  it("--json prints the payload, the error and its stack", async () => {
    const { failed } = await seed();
    const { stdout } = await wisent("jobs", "--json", "--state", "failed");
    const jobs = JSON.parse(stdout);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      id: failed,
      name: "send_digest",
      state: "failed",
      payload: { email: "b@example.com" },
      error: "Error: SMTP 550\n    at send",
    });
  });

  it("retry ID and --failed put failed jobs back in the queue", async () => {
    const { failed } = await seed();
    expect((await wisent("jobs", "retry", failed)).stdout).toBe("1 failed job back in the queue\n");
    const row = (await listJobs(db.kysely)).find((r) => r.id === failed);
    expect(row).toMatchObject({ state: "queued", attempts: 0, failed_at: null });
    expect((await wisent("jobs", "retry", "--failed")).stdout).toBe(
      "0 failed jobs back in the queue\n",
    );
    const missing = await wisent("jobs", "retry", failed);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no failed job ${failed}`);
  });

  it("discard ID deletes a waiting or failed job, never a running one", async () => {
    const { waiting } = await seed();
    expect((await wisent("jobs", "discard", waiting)).stdout).toBe(`discarded job ${waiting}\n`);
    const running = await Digest.enqueue(db, { email: "c@example.com" });
    await claimJobs(db.kysely, {
      queues: [],
      limit: 1,
      token: "w/2",
      now: Date.now(),
      leaseMs: 1000,
    });
    const refused = await wisent("jobs", "discard", running.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is running");
    expect((await wisent("jobs", "discard", waiting)).stderr).toContain(`no job ${waiting}`);
  });

  it("refuses a bad subcommand or state, and says so when the table is missing", async () => {
    expect((await wisent("jobs", "purge")).code).toBe(2);
    expect((await wisent("jobs", "--state", "done")).stderr).toContain("--state must be");
    await db.kysely.schema.dropTable("wisent_jobs").execute();
    const missing = await wisent("jobs");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("run `wisent migrate`");
  });

  it("says the table is not where the jobs are when JOBS_URL names Redis", async () => {
    const { io, stderr } = memoryIO({
      cwd: dir,
      env: {
        DATABASE_URL: `sqlite:${join(dir, "app.sqlite")}`,
        JOBS_URL: "redis://127.0.0.1:6379",
      },
    });
    expect(await runCli(["jobs"], io)).toBe(1);
    expect(stderr()).toContain("JOBS_URL names Redis");
  });
});
