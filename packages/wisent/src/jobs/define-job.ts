import type { z } from "zod";
import { WisentError } from "../base/wisent-error.js";
import type { Database } from "../data/database.js";
import type { Queryable } from "../data/queryable.js";
import { afterCommit } from "../data/transaction-hooks.js";
import { uuidv7 } from "../data/uuid.js";
import { type Backoff, DEFAULT_BACKOFF } from "./backoff.js";
import { type Duration, durationMs } from "./duration.js";
import { insertJob } from "./job-store.js";
import type { Job, JobRun, JobTarget } from "./job-types.js";
import { localWorkersListening, noteEnqueued, wakeLocalWorkers } from "./local-wake.js";
import { redisJobs } from "./redis-engine.js";

export type { Enqueued, EnqueueOptions, Job, JobRun, JobTarget } from "./job-types.js";

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
      const id = uuidv7(now);
      const queueName = options.queue === undefined ? queue : checkedQueue(options.queue, where);
      const priority = options.priority ?? job.priority;
      const redis = redisJobs();
      if (redis) {
        const input = {
          id,
          job: job as unknown as Job,
          payload: JSON.parse(json as string) as unknown,
          queue: queueName,
          runAt,
          priority,
          uniqueKey: options.uniqueKey,
        };
        // Redis cannot join the transaction: the job is added once the request has committed.
        // Redis away now: a 503, and the request's writes roll back rather than commit alone.
        if ((db as { isTransaction?: boolean }).isTransaction === true) {
          await redis.reachable(queueName);
          await afterCommit(db, () => redis.addAfterCommit(input));
          return { id, enqueued: true };
        }
        return { id, enqueued: await redis.add(input) };
      }
      const written = await insertJob(db, {
        id,
        name,
        queue: queueName,
        payload: json as string,
        priority,
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
