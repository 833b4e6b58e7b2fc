import { createHash } from "node:crypto";
import type { Job as BullJob, Queue, Worker } from "bullmq";
import { requireDependency } from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";
import { jobsUrlSetting } from "../config/settings.js";
import type { Logger } from "../http/log-types.js";
import { sharedLogger } from "../http/logger.js";
import { DEFAULT_BACKOFF, retryDelayMs } from "./backoff.js";
import type { Job, RecurringTask } from "./job-types.js";
import { JobsUnavailableError } from "./jobs-unavailable.js";

/** The key prefix of Wisent's BullMQ queues in Redis. */
const PREFIX = "wisent";

const loadBullmq = () => requireDependency<typeof import("bullmq")>("bullmq");

/**
 * How long an enqueue in a request waits for Redis to answer before the request answers 503 (and
 * how long the add after its commit waits before the job is logged as lost): BullMQ's connection
 * queues commands while Redis is away, which would otherwise hold the request until it is back.
 */
const ANSWER_MS = 2000;

/** Rejects with `error()` once `ms` have passed, unless `work` settles first. */
async function within<T>(work: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A job to add, as the database engine would write it. */
export interface RedisJobInput {
  readonly id: string;
  readonly job: Job;
  readonly payload: unknown;
  readonly queue: string;
  readonly runAt: number;
  readonly priority: number;
  readonly uniqueKey?: string | undefined;
}

/**
 * Jobs in Redis through BullMQ, when `JOBS_URL` names Redis. BullMQ cannot join the database's
 * transaction: a job enqueued in a request is added once the request has committed (so still
 * never for a request that rolled back), and a crash between the commit and the add loses it.
 * Retries use Wisent's backoff (exponential, jitter, cap), recurring tasks BullMQ's job
 * schedulers, a killed worker's job comes back through BullMQ's stalled-job check (30 s).
 */
export class RedisJobs {
  readonly #queues = new Map<string, Queue>();
  /** Whether the last look at Redis found it away: its errors are logged once per outage. */
  #away = false;

  constructor(
    /** `redis://host:6379/0` */
    readonly url: string,
  ) {}

  /** The BullMQ queue of a queue name. */
  queue(name: string): Queue {
    let queue = this.#queues.get(name);
    if (!queue) {
      const { Queue: QueueClass } = loadBullmq();
      queue = new QueueClass(name, { connection: { url: this.url }, prefix: PREFIX });
      // Without a listener, a connection error would be thrown by the emitter: logged instead,
      // once while Redis stays away.
      queue.on("error", (error) => this.#wentAway(error));
      this.#queues.set(name, queue);
    }
    return queue;
  }

  /**
   * Adds a job; false when its unique key is held by a job not yet finished (BullMQ keeps a
   * job's id until it is removed: on success at once, on failure when discarded).
   */
  async add(input: RedisJobInput): Promise<boolean> {
    const queue = this.queue(input.queue);
    // BullMQ refuses ":" in an id, which keys often have: the key's hash stands for it.
    const jobId =
      input.uniqueKey === undefined
        ? input.id
        : `key-${createHash("sha256").update(input.uniqueKey).digest("hex")}`;
    if (input.uniqueKey !== undefined && (await queue.getJob(jobId))) return false;
    await queue.add(input.job.name, input.payload, {
      jobId,
      delay: Math.max(0, input.runAt - Date.now()),
      // BullMQ runs a lower number first, and jobs without one before any with one.
      ...(input.priority !== 0 ? { priority: Math.max(1, 1_000_000 - input.priority) } : {}),
      attempts: input.job.maxAttempts,
      backoff: { type: "wisent" },
      removeOnComplete: true,
      removeOnFail: false,
    });
    return true;
  }

  /** The URL with its password masked, for messages. */
  get maskedUrl(): string {
    return this.url.replace(/\/\/[^@/]*@/, "//***@");
  }

  #wentAway(error: unknown): void {
    if (this.#away) return;
    this.#away = true;
    sharedLogger().error({
      msg: "jobs unavailable",
      setting: `JOBS_URL (${this.maskedUrl})`,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  /**
   * Resolves once Redis answers on the queue's connection; throws a
   * {@link JobsUnavailableError} (a 503) when it does not within 2 seconds. An enqueue in a request
   * asks first, so that the request rolls back rather than commit without its job.
   */
  async reachable(name: string): Promise<void> {
    const queue = this.queue(name);
    try {
      await within(
        // One round trip (HEXISTS) through BullMQ's public API, as a PING would.
        queue.isPaused(),
        ANSWER_MS,
        // The cause of the JobsUnavailableError (E_JOBS_UNAVAILABLE) thrown below.
        () => new Error(`Redis did not answer within ${ANSWER_MS} ms`),
      );
      this.#away = false;
    } catch (cause) {
      this.#wentAway(cause);
      throw new JobsUnavailableError(cause);
    }
  }

  /**
   * {@link add} after a request's commit: bounded in time (the answer waits for it), and a
   * failure logged with the job's id and name, as it cannot fail the committed request.
   */
  async addAfterCommit(input: RedisJobInput): Promise<void> {
    try {
      await within(
        this.add(input),
        ANSWER_MS,
        // Logged below, never thrown: the request has committed.
        () => new Error(`Redis did not answer within ${ANSWER_MS} ms`),
      );
    } catch (error) {
      sharedLogger().error({
        msg: "job lost: not added to Redis after its request committed",
        job: input.job.name,
        id: input.id,
        setting: `JOBS_URL (${this.maskedUrl})`,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** A worker of these jobs on the given queues (every queue a registered job uses by default). */
  worker(options: {
    jobs: ReadonlyMap<string, Job>;
    queues?: readonly string[] | undefined;
    concurrency: number;
    recurring: readonly RecurringTask[];
    logger: Logger;
  }): RedisWorker {
    return new RedisWorker(this, options);
  }

  /** Closes the queues' connections. */
  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((q) => q.close()));
    this.#queues.clear();
  }
}

/** A BullMQ worker per queue, with Wisent's job semantics (payload checked, unknown names). */
export class RedisWorker {
  readonly #workers: Worker[] = [];
  readonly #aborts = new Set<AbortController>();
  #busy = 0;

  constructor(
    private readonly engine: RedisJobs,
    private readonly options: {
      jobs: ReadonlyMap<string, Job>;
      queues?: readonly string[] | undefined;
      concurrency: number;
      recurring: readonly RecurringTask[];
      logger: Logger;
    },
  ) {}

  get busy(): number {
    return this.#busy;
  }

  /** Starts a BullMQ worker for each queue, and upserts the recurring tasks' schedulers. */
  start(): void {
    const { Worker: WorkerClass, UnrecoverableError } = loadBullmq();
    const { jobs, logger } = this.options;
    const queues =
      this.options.queues && this.options.queues.length > 0
        ? [...this.options.queues]
        : [...new Set([...jobs.values()].map((job) => job.queue))];
    for (const name of queues) {
      const worker = new WorkerClass(
        name,
        async (bull: BullJob) => {
          const job = jobs.get(bull.name);
          if (!job) {
            throw new WisentError(
              "E_JOB_UNKNOWN",
              `no job named "${bull.name}" is registered in this app (app.job(...))`,
            );
          }
          let payload: unknown;
          try {
            payload = job.parsePayload(bull.data, "perform");
          } catch (error) {
            throw new UnrecoverableError((error as Error).message);
          }
          const abort = new AbortController();
          this.#aborts.add(abort);
          this.#busy += 1;
          try {
            await job.perform(payload, {
              id: String(bull.id),
              attempt: bull.attemptsMade + 1,
              maxAttempts: job.maxAttempts,
              signal: abort.signal,
            });
          } finally {
            this.#busy -= 1;
            this.#aborts.delete(abort);
          }
        },
        {
          connection: { url: this.engine.url },
          prefix: PREFIX,
          concurrency: this.options.concurrency,
          settings: {
            backoffStrategy: (
              attemptsMade: number,
              _type?: string,
              _err?: Error,
              bull?: { name: string },
            ) =>
              retryDelayMs(attemptsMade, (bull && jobs.get(bull.name)?.backoff) ?? DEFAULT_BACKOFF),
          },
        },
      );
      worker.on("failed", (bull, error) => {
        if (!bull) return;
        const last = bull.attemptsMade >= (bull.opts.attempts ?? 1);
        logger[last ? "error" : "warn"]({
          msg: `job ${bull.name} ${bull.id} failed (attempt ${bull.attemptsMade} of ${bull.opts.attempts})${last ? ", kept as failed" : ", retrying"}: ${error.message}`,
        });
      });
      worker.on("error", (error) => logger.error({ msg: `jobs (redis): ${error.message}` }));
      this.#workers.push(worker);
    }
    for (const task of this.options.recurring) {
      const repeat =
        task.every !== undefined
          ? { every: task.every }
          : { pattern: task.cron, tz: task.timezone };
      this.engine
        .queue(task.job.queue)
        .upsertJobScheduler(task.name, repeat, { name: task.job.name, data: task.payload })
        .catch((error: Error) =>
          logger.error({ msg: `jobs (redis): schedule ${task.name}: ${error.message}` }),
        );
    }
  }

  /**
   * Takes no more jobs and waits up to `timeoutMs` for the running ones; those still running then
   * are given up (their signal aborted): BullMQ's stalled-job check returns them to the queue.
   */
  async stop(timeoutMs = 25_000): Promise<{ finished: number; released: number }> {
    const running = this.#busy;
    let timer: NodeJS.Timeout | undefined;
    const closed = Promise.all(this.#workers.map((w) => w.close())).then(() => "closed" as const);
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([closed, timeout]);
    clearTimeout(timer);
    let released = 0;
    if (outcome === "timeout") {
      released = this.#busy;
      // An abort reason the job sees, not an error thrown to the app.
      for (const abort of this.#aborts) abort.abort(new Error("the worker is stopping"));
      await Promise.all(this.#workers.map((w) => w.close(true)));
    }
    await this.engine.close();
    return { finished: running - released, released };
  }
}

let configured: RedisJobs | null | undefined;

/**
 * The Redis engine when `JOBS_URL` names Redis (`redis://`, `rediss://`), else null: jobs live in
 * the app's database. Anything else in `JOBS_URL` is refused by name.
 */
export function redisJobs(): RedisJobs | null {
  if (configured !== undefined) return configured;
  const url = jobsUrlSetting();
  if (!url) configured = null;
  else if (/^rediss?:\/\//.test(url)) configured = new RedisJobs(url);
  else {
    throw new WisentError(
      "E_CONFIG_INVALID",
      `JOBS_URL must be unset (jobs in the app's database) or a redis:// URL (BullMQ), got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, "//***@"))}`,
    );
  }
  return configured;
}

/** Forgets the engine read from `JOBS_URL` (tests that change it). */
export function resetRedisJobs(): void {
  configured = undefined;
}
