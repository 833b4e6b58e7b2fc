import type { Cron } from "croner";
import { requireDependency } from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";
import { dialectOf } from "../data/dialect-of.js";
import type { Queryable } from "../data/queryable.js";
import { type Duration, durationMs } from "./duration.js";
import { withJobsTable } from "./job-store.js";
import type { Job, RecurringTask } from "./job-types.js";
import { JOB_SCHEDULES_TABLE } from "./jobs-table.js";

/** When a registered job also runs by itself: `app.job(PruneStorage, { every: "1h" })`. */
export interface RecurringSchedule {
  /** Every so long, at multiples of it since the epoch (`"1h"` runs on the hour, UTC). */
  readonly every?: Duration;
  /** A cron expression (`"0 3 * * *"`: 03:00 every day; seconds may lead, 6 fields). */
  readonly cron?: string;
  /** The cron expression's time zone (default UTC): `"Europe/Berlin"`. */
  readonly timezone?: string;
  /** The payload of each run (default `{}`), checked against the job's schema at start-up. */
  readonly payload?: unknown;
  /** The schedule's own name, when one job has several schedules (default the job's name). */
  readonly name?: string;
}

export type { RecurringTask } from "./job-types.js";

/**
 * A {@link RecurringTask} from a job and its schedule; throws naming the job when the schedule is
 * not one (both or neither of `every` and `cron`, a bad cron expression, a payload the schema
 * refuses).
 */
export function recurringTask(job: Job, schedule: RecurringSchedule): RecurringTask {
  const name = schedule.name ?? job.name;
  const where = `app.job(${job.name}, ...)`;
  if ((schedule.every === undefined) === (schedule.cron === undefined)) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${where}: a schedule takes either every ("1h") or cron ("0 3 * * *"), not ${schedule.every === undefined ? "neither" : "both"}`,
    );
  }
  const payload = schedule.payload ?? {};
  job.parsePayload(payload, "enqueue");
  if (schedule.every !== undefined) {
    const every = durationMs(schedule.every, `${where}: every`);
    if (every < 1000) {
      throw new WisentError("E_APP_MISCONFIGURED", `${where}: every must be 1s or more`);
    }
    return { name, job, payload, every, tickAt: (now) => Math.floor(now / every) * every };
  }
  const { Cron: CronClass } = requireDependency<typeof import("croner")>("croner");
  let cron: Cron;
  try {
    cron = new CronClass(schedule.cron as string, { timezone: schedule.timezone ?? "UTC" });
  } catch (cause) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${where}: cron ${JSON.stringify(schedule.cron)} is not a cron expression: ${(cause as Error).message}`,
      { cause },
    );
  }
  return {
    name,
    job,
    payload,
    cron: schedule.cron as string,
    timezone: schedule.timezone ?? "UTC",
    tickAt: (now) => cron.previousRuns(1, new Date(now + 1))[0]?.getTime(),
  };
}

/**
 * Enqueues each recurring task once per tick across every process and machine that runs a
 * worker: the process that moves the task's row in `wisent_job_schedules` forward to the new
 * tick (a conditional update, which only one transaction can make) enqueues the job, in the same
 * transaction. Ticks missed while no worker ran are skipped, not caught up; the first tick seen
 * for a new task only records it.
 */
export class RecurringScheduler {
  readonly #tasks: readonly RecurringTask[];
  /** The last tick this process saw per task: the database is asked only when a tick is new. */
  readonly #seen = new Map<string, number>();

  constructor(tasks: readonly RecurringTask[]) {
    this.#tasks = tasks;
  }

  get size(): number {
    return this.#tasks.length;
  }

  /** Enqueues the tasks whose tick at `now` no process has enqueued yet; how many it enqueued. */
  async enqueueDue(db: Queryable, now: number): Promise<number> {
    let enqueued = 0;
    for (const task of this.#tasks) {
      const tick = task.tickAt(now);
      if (tick === undefined || tick <= (this.#seen.get(task.name) ?? -1)) continue;
      if (await claimTick(db, task, tick)) enqueued += 1;
      this.#seen.set(task.name, tick);
    }
    return enqueued;
  }
}

/** Moves the task's row to `tick` and enqueues it, if no process did: true when this one did. */
function claimTick(db: Queryable, task: RecurringTask, tick: number): Promise<boolean> {
  return withJobsTable(() =>
    db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable(JOB_SCHEDULES_TABLE)
        .set({ last_tick: tick })
        .where("name", "=", task.name)
        .where("last_tick", "<", tick)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) > 0) {
        await task.job.enqueue(trx, task.payload);
        return true;
      }
      // A new task: its first tick is recorded, not run (it runs from the next one on).
      const insert = trx
        .insertInto(JOB_SCHEDULES_TABLE)
        .values({ name: task.name, last_tick: tick });
      if (dialectOf(trx) === "mysql") {
        await insert.onDuplicateKeyUpdate({ name: task.name }).execute();
      } else {
        await insert.onConflict((oc) => oc.column("name").doNothing()).execute();
      }
      return false;
    }),
  );
}
