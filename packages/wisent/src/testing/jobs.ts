/**
 * Test helpers for background jobs, in the style of Rails' `assert_enqueued_with` and
 * `perform_enqueued_jobs`, Laravel's `Queue::assertPushed` and Oban's `assert_enqueued`. They see
 * only the jobs this test process enqueued (test files run in parallel on one test database),
 * in the real jobs table: a job enqueued by a request that rolled back is not there.
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { WisentError } from "../base/wisent-error.js";
import type { Job } from "../jobs/define-job.js";
import { type AppJobs, currentAppJobs } from "../jobs/job-registry.js";
import { listJobs } from "../jobs/job-store.js";
import { JOBS_TABLE, type JobRow } from "../jobs/jobs-table.js";
import { forgetEnqueued, jobsEnqueuedHere } from "../jobs/local-wake.js";

/** What a waiting job must carry: a part of its payload (deeply equal), or a test of it. */
export type PayloadMatch<P> = Partial<P> | ((payload: P) => boolean);

/** A job found waiting. */
export interface EnqueuedJob<P = unknown> {
  readonly id: string;
  readonly payload: P;
  readonly queue: string;
  readonly runAt: Date;
  readonly priority: number;
  readonly uniqueKey: string | null;
}

function appJobs(jobs: AppJobs | undefined, helper: string): AppJobs {
  const found = jobs ?? currentAppJobs();
  if (!found) {
    throw new WisentError(
      "E_TEST_SETUP",
      `${helper}: no app has declared its jobs (app.jobs(db)): import the app (src/app.ts) in the test`,
    );
  }
  return found;
}

/** The jobs this process enqueued that wait, oldest first. */
async function waitingHere(jobs: AppJobs | undefined, helper: string): Promise<JobRow[]> {
  const db = appJobs(jobs, helper).database.kysely;
  return listJobs(db, { state: "queued", ids: jobsEnqueuedHere() });
}

function matches<P>(payload: P, match: PayloadMatch<P> | undefined): boolean {
  if (match === undefined) return true;
  if (typeof match === "function") return match(payload);
  return Object.entries(match as object).every(([key, value]) =>
    isDeepStrictEqual((payload as Record<string, unknown>)?.[key], value),
  );
}

function enqueuedJob<P>(row: JobRow): EnqueuedJob<P> {
  return {
    id: row.id,
    payload: JSON.parse(row.payload) as P,
    queue: row.queue,
    runAt: new Date(Number(row.run_at)),
    priority: row.priority,
    uniqueKey: row.unique_key,
  };
}

/** The waiting jobs of `job` this process enqueued whose payload matches, oldest first. */
export async function enqueuedJobs<S extends z.ZodType, P = z.output<S>>(
  job: Job<S>,
  match?: PayloadMatch<P>,
  options: { jobs?: AppJobs } = {},
): Promise<EnqueuedJob<P>[]> {
  const rows = await waitingHere(options.jobs, "enqueuedJobs");
  return rows
    .filter((row) => row.name === job.name)
    .map((row) => enqueuedJob<P>(row))
    .filter((found) => matches(found.payload, match));
}

/**
 * Fails unless a job of this kind waits whose payload matches (`match`: part of the payload, or a
 * test of it); returns the first such job. The message lists what does wait.
 *
 * @example
 * await testClient(app).post("/passwords", { form: { email } });
 * await assertEnqueued(SendDigest, { email });
 */
export async function assertEnqueued<S extends z.ZodType, P = z.output<S>>(
  job: Job<S>,
  match?: PayloadMatch<P>,
  options: { jobs?: AppJobs } = {},
): Promise<EnqueuedJob<P>> {
  const found = await enqueuedJobs(job, match, options);
  if (found[0]) return found[0];
  const waiting = (await waitingHere(options.jobs, "assertEnqueued")).map(
    (row) => `${row.name} ${row.payload}`,
  );
  throw new WisentError(
    "E_TEST_ASSERTION",
    `expected a ${job.name} job${match === undefined ? "" : ` matching ${describe(match)}`} to be enqueued; ${waiting.length === 0 ? "none waits" : `waiting: ${waiting.join(", ")}`}`,
  );
}

/**
 * Fails when a job of this kind (with a matching payload, when given) waits.
 *
 * @example
 * expect((await browser.post("/widgets", { form: { title: "" } })).status).toBe(422);
 * await assertNotEnqueued(SendDigest);
 */
export async function assertNotEnqueued<S extends z.ZodType, P = z.output<S>>(
  job: Job<S>,
  match?: PayloadMatch<P>,
  options: { jobs?: AppJobs } = {},
): Promise<void> {
  const found = await enqueuedJobs(job, match, options);
  if (found.length === 0) return;
  throw new WisentError(
    "E_TEST_ASSERTION",
    `expected no ${job.name} job${match === undefined ? "" : ` matching ${describe(match)}`} to be enqueued; found ${found.map((f) => JSON.stringify(f.payload)).join(", ")}`,
  );
}

/**
 * Performs the jobs this process enqueued, here and now (delayed ones too), and the jobs those
 * enqueue, until none waits; resolves with how many ran. A job that throws is left waiting and
 * its error is thrown. `limit` (default 1000) stops a job that keeps enqueueing itself.
 *
 * @example
 * await testClient(app).post("/passwords", { form: { email } });
 * await performEnqueued();
 * assertSent(...);
 */
export async function performEnqueued(
  options: { jobs?: AppJobs; limit?: number } = {},
): Promise<number> {
  const jobs = appJobs(options.jobs, "performEnqueued");
  const db = jobs.database.kysely;
  const limit = options.limit ?? 1000;
  let performed = 0;
  for (;;) {
    const [row] = await listJobs(db, { state: "queued", ids: jobsEnqueuedHere(), limit: 1 });
    if (!row) return performed;
    if (performed >= limit) {
      throw new WisentError(
        "E_TEST_ASSERTION",
        `performEnqueued: stopped after ${limit} jobs (a job that enqueues itself?)`,
      );
    }
    const job = jobs.jobs.get(row.name);
    if (!job) {
      throw new WisentError(
        "E_JOB_UNKNOWN",
        `performEnqueued: no job named "${row.name}" is registered (app.job(...))`,
      );
    }
    const payload = job.parsePayload(JSON.parse(row.payload), "perform");
    await db
      .updateTable(JOBS_TABLE)
      .set({ attempts: row.attempts + 1 })
      .where("id", "=", row.id)
      .execute();
    await job.perform(payload, {
      id: row.id,
      attempt: row.attempts + 1,
      maxAttempts: row.max_attempts,
      signal: new AbortController().signal,
    });
    await db.deleteFrom(JOBS_TABLE).where("id", "=", row.id).execute();
    forgetEnqueued([row.id]);
    performed += 1;
  }
}

/** Deletes the jobs this process enqueued that still wait (between tests). */
export async function clearEnqueued(options: { jobs?: AppJobs } = {}): Promise<void> {
  const ids = jobsEnqueuedHere();
  if (ids.length > 0) {
    const db = appJobs(options.jobs, "clearEnqueued").database.kysely;
    await db.deleteFrom(JOBS_TABLE).where("id", "in", ids).where("state", "=", "queued").execute();
  }
  forgetEnqueued();
}

function describe(match: unknown): string {
  return typeof match === "function" ? "the test" : JSON.stringify(match);
}
