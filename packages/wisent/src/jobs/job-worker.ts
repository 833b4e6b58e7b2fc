import { randomBytes } from "node:crypto";
import { WisentError } from "../base/wisent-error.js";
import type { Queryable } from "../data/queryable.js";
import type { Logger } from "../http/log-types.js";
import { retryDelayMs } from "./backoff.js";
import type { Job } from "./define-job.js";
import {
  claimJobs,
  completeJob,
  extendLeases,
  failJob,
  releaseJob,
  rescueExpired,
} from "./job-store.js";
import type { JobRow } from "./jobs-table.js";
import { onLocalEnqueue } from "./local-wake.js";
import type { RecurringScheduler } from "./recurring.js";

/** Options of a {@link JobWorker}. */
export interface JobWorkerOptions {
  /** The app's database (its root Kysely, never a request's transaction). */
  readonly db: Queryable;
  /** The jobs it can perform, by name. */
  readonly jobs: ReadonlyMap<string, Job>;
  /** Queues to take jobs from (default: every queue). */
  readonly queues?: readonly string[];
  /** Jobs performed at once (default 5). */
  readonly concurrency?: number;
  /** How often to look for due jobs when idle, in ms (default 1000). */
  readonly pollIntervalMs?: number;
  /**
   * How long a claim holds a job without a heartbeat, in ms (default 30 s): a worker killed
   * mid-job leaves it to another worker once this has passed. Heartbeats every third of it.
   */
  readonly leaseMs?: number;
  /** The recurring tasks to enqueue at their ticks. */
  readonly scheduler?: RecurringScheduler;
  readonly logger: Logger;
}

/** A job being performed by this worker. */
interface Running {
  readonly row: JobRow;
  readonly token: string;
  readonly abort: AbortController;
  readonly done: Promise<void>;
}

/** The longest wait between two tries to reach a database that does not answer. */
const MAX_RECONNECT_MS = 30_000;

/**
 * Takes due jobs from the jobs table and performs them, `concurrency` at a time: claims with a
 * lease it renews by heartbeat, deletes a job that succeeded, retries one that failed after an
 * exponential backoff with jitter, keeps one that failed its last attempt (error and stack), and
 * gives the jobs of a worker that died back to the queue when their lease runs out.
 *
 * @example
 * const worker = new JobWorker({ db: db.kysely, jobs, logger });
 * worker.start();
 * process.on("SIGTERM", () => worker.stop(25_000));
 */
export class JobWorker {
  /** This worker's id, the prefix of its claims' tokens. */
  readonly id = randomBytes(8).toString("hex");
  readonly #options: JobWorkerOptions;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #running = new Map<string, Running>();
  #claims = 0;
  #loop: Promise<void> | undefined;
  #stopping = false;
  #wake: (() => void) | undefined;
  #woken = false;
  #heartbeat: NodeJS.Timeout | undefined;
  #lastRescue = 0;
  /** The database's last known state, logged when it changes. */
  #reachable = true;
  #unlisten: (() => void) | undefined;

  constructor(options: JobWorkerOptions) {
    this.#options = options;
    this.#concurrency = positive(options.concurrency ?? 5, "concurrency");
    this.#pollMs = positive(options.pollIntervalMs ?? 1000, "pollIntervalMs");
    this.#leaseMs = positive(options.leaseMs ?? 30_000, "leaseMs");
  }

  /** How many jobs it is performing now. */
  get busy(): number {
    return this.#running.size;
  }

  /** Starts taking jobs (once). */
  start(): void {
    if (this.#loop) return;
    this.#unlisten = onLocalEnqueue(() => this.#poke());
    this.#heartbeat = setInterval(() => this.#beat(), Math.max(10, Math.floor(this.#leaseMs / 3)));
    this.#heartbeat.unref();
    this.#loop = this.#run();
  }

  /**
   * Stops taking jobs, waits up to `timeoutMs` for the running ones to finish, then gives those
   * still running back to the queue (their `signal` aborted). Resolves with how many finished
   * and how many went back.
   */
  async stop(timeoutMs = 25_000): Promise<{ finished: number; released: number }> {
    this.#stopping = true;
    this.#unlisten?.();
    this.#poke();
    await this.#loop;
    const running = [...this.#running.values()];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all(running.map((r) => r.done)), timeout]);
    clearTimeout(timer);
    const unfinished = [...this.#running.values()];
    for (const run of unfinished) {
      // An abort reason the job sees, not an error thrown to the app: a job that stops is retried.
      run.abort.abort(new Error("the worker is stopping: the job goes back to the queue"));
      this.#running.delete(run.row.id);
      await releaseJob(this.#options.db, run.row.id, run.token, Date.now()).catch((error) =>
        this.#log("error", `jobs: could not give job ${run.row.id} back: ${message(error)}`),
      );
    }
    clearInterval(this.#heartbeat);
    return { finished: running.length - unfinished.length, released: unfinished.length };
  }

  async #run(): Promise<void> {
    let retryMs = this.#pollMs;
    while (!this.#stopping) {
      let claimed = 0;
      let free = this.#concurrency - this.#running.size;
      try {
        await this.#housekeeping();
        if (free > 0) {
          const rows = await this.#claim(free);
          claimed = rows.length;
          for (const row of rows) this.#perform(row);
          free -= claimed;
        }
        this.#setReachable(true);
        retryMs = this.#pollMs;
      } catch (error) {
        this.#setReachable(false, error);
        retryMs = Math.min(MAX_RECONNECT_MS, retryMs * 2);
        await this.#sleep(retryMs);
        continue;
      }
      // A full batch: more may be due, take them now (when there is room).
      if (claimed > 0 && free > 0) continue;
      await this.#sleep(this.#pollMs);
    }
  }

  /** Rescues expired leases (every quarter lease) and enqueues recurring ticks. */
  async #housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastRescue >= this.#leaseMs / 4) {
      this.#lastRescue = now;
      const rescued = await rescueExpired(this.#options.db, now);
      if (rescued.requeued > 0 || rescued.failed > 0) {
        this.#log(
          "warn",
          `jobs: ${rescued.requeued} job(s) of a stopped worker back in the queue, ${rescued.failed} failed (no attempts left)`,
        );
      }
    }
    await this.#options.scheduler?.enqueueDue(this.#options.db, now);
  }

  #claim(limit: number): Promise<JobRow[]> {
    this.#claims += 1;
    return claimJobs(this.#options.db, {
      queues: this.#options.queues ?? [],
      limit,
      token: `${this.id}/${this.#claims}`,
      now: Date.now(),
      leaseMs: this.#leaseMs,
    });
  }

  #perform(row: JobRow): void {
    const token = row.locked_by as string;
    const abort = new AbortController();
    const done = this.#attempt(row, token, abort.signal).finally(() => {
      this.#running.delete(row.id);
      this.#poke();
    });
    this.#running.set(row.id, { row, token, abort, done });
  }

  async #attempt(row: JobRow, token: string, signal: AbortSignal): Promise<void> {
    const db = this.#options.db;
    const job = this.#options.jobs.get(row.name);
    let retry = true;
    try {
      if (!job) {
        throw new WisentError(
          "E_JOB_UNKNOWN",
          `no job named "${row.name}" is registered in this app (app.job(...)): if it was removed, discard it with \`wisent jobs discard ${row.id}\``,
        );
      }
      let payload: unknown;
      try {
        payload = job.parsePayload(JSON.parse(row.payload), "perform");
      } catch (error) {
        retry = false; // the same payload fails the same way every time
        throw error;
      }
      await job.perform(payload, {
        id: row.id,
        attempt: row.attempts,
        maxAttempts: row.max_attempts,
        signal,
      });
    } catch (error) {
      if (signal.aborted) return; // given back to the queue by stop()
      const now = Date.now();
      const last = !retry || row.attempts >= row.max_attempts;
      const backoff = job?.backoff ?? { baseMs: 15_000, maxMs: 3_600_000 };
      const retryAt = last ? undefined : now + retryDelayMs(row.attempts, backoff);
      this.#log(
        last ? "error" : "warn",
        `job ${row.name} ${row.id} failed (attempt ${row.attempts} of ${row.max_attempts})${last ? ", kept as failed" : `, retrying in ${Math.round(((retryAt as number) - now) / 1000)}s`}: ${message(error)}`,
      );
      await failJob(db, row.id, token, errorText(error), now, retryAt).catch((cause) =>
        this.#log("error", `jobs: could not record the failure of ${row.id}: ${message(cause)}`),
      );
      return;
    }
    if (signal.aborted) return;
    const completed = await completeJob(db, row.id, token).catch((cause) => {
      // Its lease runs out and another worker runs it again: at least once.
      this.#log("error", `jobs: could not mark ${row.id} done: ${message(cause)}`);
      return true;
    });
    if (!completed) {
      this.#log(
        "warn",
        `job ${row.name} ${row.id} finished after its lease ran out: another worker may have run it too`,
      );
    }
  }

  /** Extends the leases of the jobs under way. */
  #beat(): void {
    if (this.#running.size === 0) return;
    extendLeases(this.#options.db, this.id, Date.now() + this.#leaseMs).catch((error) =>
      this.#log("error", `jobs: heartbeat failed: ${message(error)}`),
    );
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken || this.#stopping) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.#wake = finish;
    });
  }

  /** Ends the current sleep (a job finished, one was enqueued here, or stopping). */
  #poke(): void {
    if (this.#wake) this.#wake();
    else this.#woken = true;
  }

  #setReachable(reachable: boolean, error?: unknown): void {
    if (reachable === this.#reachable) return;
    this.#reachable = reachable;
    if (reachable) this.#log("info", "jobs: the database answers again; taking jobs");
    else this.#log("error", `jobs: cannot take jobs, retrying with backoff: ${message(error)}`);
  }

  #log(level: "info" | "warn" | "error", msg: string): void {
    this.#options.logger[level]({ msg });
  }
}

function positive(value: number, name: string): number {
  if (Number.isInteger(value) && value > 0) return value;
  throw new WisentError(
    "E_CONFIG_INVALID",
    `jobs: ${name} must be a whole number above 0, got ${value}`,
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What is kept of a failure: the stack (which starts with the message), else the message. */
function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
