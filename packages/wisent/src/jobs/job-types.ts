import type { z } from "zod";
import type { Database } from "../data/database.js";
import type { Queryable } from "../data/queryable.js";
import type { Backoff } from "./backoff.js";
import type { Duration } from "./duration.js";

// The types of jobs on their own, so that the engines (the table's, Redis's) and defineJob
// import them without importing each other.

/** What `perform` is told about the run under way. */
export interface JobRun {
  /** The job's id (the row in `wisent_jobs`). */
  readonly id: string;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly attempt: number;
  readonly maxAttempts: number;
  /**
   * Aborted when the worker stops (SIGTERM) and its shutdown timeout has passed: the job goes
   * back to the queue, so stop and let the next worker run it again.
   */
  readonly signal: AbortSignal;
}

/** Options of one enqueue. */
export interface EnqueueOptions {
  /** Not before this long from now: `"10m"`, or milliseconds. */
  readonly delay?: Duration;
  /** Not before this time. */
  readonly runAt?: Date;
  /**
   * While a job with this key waits or runs, enqueueing another with it does nothing (and says
   * so: `enqueued: false`, with the waiting job's id).
   */
  readonly uniqueKey?: string;
  /** Overrides the job's priority. */
  readonly priority?: number;
  /** Overrides the job's queue. */
  readonly queue?: string;
}

/** What an enqueue did. */
export interface Enqueued {
  /** The job's id, or the waiting job's when the unique key was taken. */
  readonly id: string;
  /** False when a job with the same unique key was already waiting: nothing was written. */
  readonly enqueued: boolean;
}

/** Where a job is written: the request's transaction (`c.tx()`, awaited or not), a Kysely or the Database. */
export type JobTarget = Queryable | Promise<Queryable> | Database;

/** A job: its settings, and how to enqueue it. */
export interface Job<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
  readonly queue: string;
  readonly priority: number;
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  perform(payload: z.output<S>, run: JobRun): unknown;
  /**
   * Writes the job through `db`. Given the request's transaction (`c.tx()`), the job exists if
   * and only if the request's writes commit: a request that answers 422 or throws leaves none.
   * Given the Database (a script, another job), it commits on its own. With `JOBS_URL` naming
   * Redis (BullMQ), a job enqueued in a request is added after the commit. Throws a WisentError
   * (`E_JOB_PAYLOAD_INVALID`) naming the field when the payload fails the schema.
   *
   * @example
   * await SendDigest.enqueue(c.tx(), { email }, { delay: "10m", uniqueKey: `digest:${email}` });
   */
  enqueue(db: JobTarget, payload: z.input<S>, options?: EnqueueOptions): Promise<Enqueued>;
  /** The payload, checked against the schema (`when`: `enqueue` or `perform`, for the message). */
  parsePayload(payload: unknown, when: "enqueue" | "perform"): z.output<S>;
}

/** A job with its schedule, ready to be enqueued at each tick. */
export interface RecurringTask {
  readonly name: string;
  readonly job: Job;
  readonly payload: unknown;
  /** The schedule, as declared (for engines with schedulers of their own). */
  readonly every?: number;
  readonly cron?: string;
  readonly timezone?: string;
  /** The latest tick at or before `now` (ms), if the schedule has one. */
  tickAt(now: number): number | undefined;
}
