import { WisentError } from "../base/wisent-error.js";
import type { Database } from "../data/database.js";
import type { Logger } from "../http/log-types.js";
import { sharedLogger } from "../http/logger.js";
import type { Job } from "./define-job.js";
import { JobWorker } from "./job-worker.js";
import {
  type RecurringSchedule,
  RecurringScheduler,
  type RecurringTask,
  recurringTask,
} from "./recurring.js";
import { redisJobs } from "./redis-engine.js";

/** A worker of an app's jobs, on the engine `JOBS_URL` chose (the database, or Redis). */
export interface JobsWorker {
  /** How many jobs it is performing now. */
  readonly busy: number;
  start(): void;
  /** Takes no more jobs, waits up to `timeoutMs` for the running ones, gives the rest back. */
  stop(timeoutMs?: number): Promise<{ finished: number; released: number }>;
}

/** Options of {@link AppJobs.worker}. */
export interface WorkOptions {
  /** Queues to take jobs from (default: every queue). */
  readonly queues?: readonly string[];
  /** Jobs performed at once (default 5). */
  readonly concurrency?: number;
  /** How often an idle worker looks for due jobs, in ms (default 1000). */
  readonly pollIntervalMs?: number;
  /** A claim's lease without heartbeat, in ms (default 30 s). */
  readonly leaseMs?: number;
  /** Default the app's logger. */
  readonly logger?: Logger;
}

/**
 * An app's jobs: the database they are stored in, the jobs registered by name (what a worker can
 * perform) and the recurring tasks. `app.jobs(db)` makes it; `app.job(Job)` registers.
 */
export class AppJobs {
  readonly #jobs = new Map<string, Job>();
  readonly #tasks: RecurringTask[] = [];

  constructor(
    /** The database the jobs table is in: the app's own. */
    readonly database: Database,
  ) {}

  /** The registered jobs, by name. */
  get jobs(): ReadonlyMap<string, Job> {
    return this.#jobs;
  }

  /** The recurring tasks, in registration order. */
  get recurring(): readonly RecurringTask[] {
    return this.#tasks;
  }

  /**
   * Registers a job (a worker performs only registered jobs), with a schedule when it also runs by
   * itself. Two jobs with one name are refused.
   */
  register(job: Job, schedule?: RecurringSchedule): void {
    const known = this.#jobs.get(job?.name);
    if (!job || typeof job.parsePayload !== "function") {
      throw new WisentError("E_APP_MISCONFIGURED", "app.job(...) takes a job made by defineJob");
    }
    if (known && known !== job) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `app.job: two different jobs are named "${job.name}": give each its own name`,
      );
    }
    this.#jobs.set(job.name, job);
    if (schedule) {
      const task = recurringTask(job, schedule);
      if (this.#tasks.some((t) => t.name === task.name)) {
        throw new WisentError(
          "E_APP_MISCONFIGURED",
          `app.job(${job.name}, ...): a recurring task named "${task.name}" exists: give this schedule a name`,
        );
      }
      this.#tasks.push(task);
    }
  }

  /**
   * A worker of these jobs (not yet started): `wisent jobs work` runs one, `wisent start --jobs`
   * and `wisent dev` run one beside the server.
   */
  worker(options: WorkOptions = {}): JobsWorker {
    const redis = redisJobs();
    if (redis) {
      return redis.worker({
        jobs: this.#jobs,
        queues: options.queues,
        concurrency: options.concurrency ?? 5,
        recurring: this.#tasks,
        logger: options.logger ?? sharedLogger(),
      });
    }
    return new JobWorker({
      db: this.database.kysely,
      jobs: this.#jobs,
      scheduler: this.#tasks.length > 0 ? new RecurringScheduler(this.#tasks) : undefined,
      logger: options.logger ?? sharedLogger(),
      ...(options.queues ? { queues: options.queues } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
    });
  }
}

let current: AppJobs | undefined;

/** The jobs of the app this process last declared (`app.jobs(db)`): the test helpers' default. */
export function currentAppJobs(): AppJobs | undefined {
  return current;
}

/** Makes `jobs` the process's current app jobs. */
export function setCurrentAppJobs(jobs: AppJobs): void {
  current = jobs;
}
