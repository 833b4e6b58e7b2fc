import type { z } from "zod";
import { WisentError } from "../base/wisent-error.js";
import type { Database } from "../data/database.js";
import type { Queryable } from "../data/queryable.js";
import { afterCommit } from "../data/transaction-hooks.js";
import { uuidv7 } from "../data/uuid.js";
import { type Backoff, DEFAULT_BACKOFF } from "./backoff.js";
import { type Duration, durationMs } from "./duration.js";
import { insertJob } from "./job-store.js";
import { localWorkersListening, noteEnqueued, wakeLocalWorkers } from "./local-wake.js";

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

/** How a job is declared: see {@link defineJob}. */
export interface JobSettings<S extends z.ZodType> {
  /** The job's name, stored with each job: `send_digest` (letters, digits, `_`, `-`, `.`, `:`). */
  readonly name: string;
  /** What the job is given, checked when enqueued and again when performed. JSON only. */
  readonly payload: S;
  /** The work. Throw to fail the attempt (it is retried); it may run more than once. */
  perform(payload: z.output<S>, run: JobRun): unknown;
  /** The queue workers take it from (default `default`). */
  readonly queue?: string;
  /** Higher runs first among jobs due (default 0). */
  readonly priority?: number;
  /** Tries in all, the first included, before it is kept as failed (default 8). */
  readonly attempts?: number;
  /** The wait after the first failure (default `"15s"`), doubling with each failure after. */
  readonly backoff?: { readonly base?: Duration; readonly max?: Duration };
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
   * Given the Database (a script, another job), it commits on its own. Throws a WisentError
   * (`E_JOB_PAYLOAD_INVALID`) naming the field when the payload fails the schema.
   *
   * @example
   * await SendDigest.enqueue(c.tx(), { email }, { delay: "10m", uniqueKey: `digest:${email}` });
   */
  enqueue(db: JobTarget, payload: z.input<S>, options?: EnqueueOptions): Promise<Enqueued>;
  /** The payload, checked against the schema (`when`: `enqueue` or `perform`, for the message). */
  parsePayload(payload: unknown, when: "enqueue" | "perform"): z.output<S>;
}

const JOB_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,199}$/;
const QUEUE_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;

/**
 * Declares a job: a name, a zod payload schema and `perform`. Register it with the app
 * (`app.job(SendDigest)`) so that workers know it; enqueue it from a handler through the
 * request's transaction. Jobs run at least once: make `perform` safe to run twice.
 *
 * @example
 * // src/jobs/send-digest.ts
 * export const SendDigest = defineJob({
 *   name: "send_digest",
 *   payload: z.object({ email: z.email() }),
 *   async perform({ email }) {
 *     await mail.send({ to: email, subject: "Your digest", text: await digestFor(email) });
 *   },
 * });
 *
 * // in a handler
 * await SendDigest.enqueue(c.tx(), { email: user.email });
 */
export function defineJob<S extends z.ZodType>(settings: JobSettings<S>): Job<S> {
  const { name, payload: schema } = settings;
  if (typeof name !== "string" || !JOB_NAME.test(name)) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `defineJob: name must start with a letter and use letters, digits, "_", "-", ".", ":" (at most 200), got ${JSON.stringify(name)}`,
    );
  }
  const where = `job ${name}`;
  if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== "function") {
    throw new WisentError("E_APP_MISCONFIGURED", `${where}: payload must be a zod schema`);
  }
  if (typeof settings.perform !== "function") {
    throw new WisentError("E_APP_MISCONFIGURED", `${where}: perform must be a function`);
  }
  const queue = checkedQueue(settings.queue ?? "default", where);
  const maxAttempts = settings.attempts ?? 8;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${where}: attempts must be a whole number of 1 or more, got ${maxAttempts}`,
    );
  }
  const backoff: Backoff = {
    baseMs:
      settings.backoff?.base === undefined
        ? DEFAULT_BACKOFF.baseMs
        : durationMs(settings.backoff.base, `${where}: backoff.base`),
    maxMs:
      settings.backoff?.max === undefined
        ? DEFAULT_BACKOFF.maxMs
        : durationMs(settings.backoff.max, `${where}: backoff.max`),
  };
  const job: Job<S> = {
    name,
    schema,
    queue,
    priority: settings.priority ?? 0,
    maxAttempts,
    backoff,
    perform: (payload, run) => settings.perform(payload, run),
    parsePayload(payload, when) {
      const result = schema.safeParse(payload);
      if (result.success) return result.data;
      throw new WisentError(
        "E_JOB_PAYLOAD_INVALID",
        `${where}: the payload ${when === "enqueue" ? "given to enqueue" : "read back to perform"} is invalid: ${describeIssues(result.error.issues)}`,
      );
    },
    async enqueue(target, payload, options = {}) {
      // A refused payload is thrown before `target` is awaited: its own failure is then moot.
      if (target instanceof Promise) target.catch(() => {});
      // Checked as a worker will read it: a payload JSON cannot carry (a Date) fails here.
      const json = JSON.stringify(payload);
      job.parsePayload(json === undefined ? undefined : JSON.parse(json), "enqueue");
      const now = Date.now();
      const runAt = options.runAt
        ? runAtOf(options.runAt, where)
        : now + (options.delay === undefined ? 0 : durationMs(options.delay, `${where}: delay`));
      if (options.uniqueKey !== undefined) checkedKey(options.uniqueKey, where);
      const db = await queryableOf(target);
      const written = await insertJob(db, {
        id: uuidv7(now),
        name,
        queue: options.queue === undefined ? queue : checkedQueue(options.queue, where),
        payload: json as string,
        priority: options.priority ?? job.priority,
        maxAttempts,
        runAt,
        uniqueKey: options.uniqueKey,
        now,
      });
      if (written.inserted) {
        noteEnqueued(written.id);
        if (localWorkersListening()) await afterCommit(db, async () => wakeLocalWorkers());
      }
      return { id: written.id, enqueued: written.inserted };
    },
  };
  return job;
}

/** `email: Invalid email address; tags.0: Expected string`. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map(
      (issue) =>
        `${issue.path.length > 0 ? issue.path.join(".") : "(the payload)"}: ${issue.message}`,
    )
    .join("; ");
}

async function queryableOf(target: JobTarget): Promise<Queryable> {
  const db = await target;
  return isDatabase(db) ? db.kysely : db;
}

function isDatabase(db: Queryable | Database): db is Database {
  return typeof (db as Database).beginRequest === "function";
}

function checkedQueue(queue: string, where: string): string {
  if (typeof queue === "string" && QUEUE_NAME.test(queue)) return queue;
  throw new WisentError(
    "E_APP_MISCONFIGURED",
    `${where}: queue must be 1 to 100 letters, digits, "_", "-", ".", ":", got ${JSON.stringify(queue)}`,
  );
}

function checkedKey(key: string, where: string): void {
  if (typeof key === "string" && key.length > 0 && key.length <= 255) return;
  throw new WisentError(
    "E_APP_MISCONFIGURED",
    `${where}: uniqueKey must be a string of 1 to 255 characters, got ${JSON.stringify(key)}`,
  );
}

function runAtOf(date: Date, where: string): number {
  const time = date instanceof Date ? date.getTime() : Number.NaN;
  if (Number.isFinite(time)) return time;
  throw new WisentError("E_APP_MISCONFIGURED", `${where}: runAt must be a valid Date`);
}
