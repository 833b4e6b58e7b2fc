import { sql } from "kysely";
import { dialectOf } from "../data/dialect-of.js";
import type { Queryable } from "../data/queryable.js";

/** The table of jobs waiting, running or failed (a job that succeeded is deleted). */
export const JOBS_TABLE = "wisent_jobs";
/** One row per recurring task: the last tick enqueued, so that each tick runs once. */
export const JOB_SCHEDULES_TABLE = "wisent_job_schedules";

/** Where a job is: waiting for its time, taken by a worker, or failed for good. */
export type JobState = "queued" | "running" | "failed";

/** A row of {@link JOBS_TABLE}. Times are milliseconds since the epoch. */
export interface JobRow {
  id: string;
  name: string;
  queue: string;
  /** The payload as JSON text. */
  payload: string;
  /** Higher runs first among jobs due. */
  priority: number;
  state: JobState;
  /** Times taken by a worker so far (the run under way included). */
  attempts: number;
  max_attempts: number;
  /** Not before this time. */
  run_at: number;
  /** Unique among the jobs not yet finished; null for none. */
  unique_key: string | null;
  /** The token of the worker's claim that holds it while it runs. */
  locked_by: string | null;
  /** The claim's lease: past it, with no heartbeat, the job goes back to the queue. */
  locked_until: number | null;
  /** The last failure's error and stack. */
  last_error: string | null;
  created_at: number;
  /** When it failed for good. */
  failed_at: number | null;
}

/**
 * Creates the jobs tables, for the migration `wisent g job` writes: the same columns on SQLite,
 * PostgreSQL and MySQL/MariaDB, times as milliseconds (`bigint`), and the indexes a worker's claim
 * and a unique key need.
 *
 * @example
 * // migrations/20260101000000_create_wisent_jobs.ts
 * import { createJobTables, dropJobTables } from "wisent/jobs";
 * export const up = createJobTables;
 * export const down = dropJobTables;
 */
export async function createJobTables(db: Queryable): Promise<void> {
  const dialect = dialectOf(db);
  // MySQL's TEXT holds 64 KB; a payload or a stack trace may be longer.
  const longText = dialect === "mysql" ? sql`mediumtext` : sql`text`;
  const id = dialect === "postgres" ? sql`uuid` : dialect === "mysql" ? sql`char(36)` : sql`text`;
  await db.schema
    .createTable(JOBS_TABLE)
    .addColumn("id", id, (c) => c.primaryKey())
    .addColumn("name", "varchar(200)", (c) => c.notNull())
    .addColumn("queue", "varchar(100)", (c) => c.notNull())
    .addColumn("payload", longText, (c) => c.notNull())
    .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("state", "varchar(20)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("run_at", "bigint", (c) => c.notNull())
    .addColumn("unique_key", "varchar(255)")
    .addColumn("locked_by", "varchar(100)")
    .addColumn("locked_until", "bigint")
    .addColumn("last_error", longText)
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("failed_at", "bigint")
    .execute();
  // The claim: due jobs of a state, soonest first. The rescue of expired leases reads the
  // running jobs through it too (as many as the workers' concurrency): one index less to keep
  // up at every enqueue and every change of state.
  await db.schema
    .createIndex(`${JOBS_TABLE}_claim_idx`)
    .on(JOBS_TABLE)
    .columns(["state", "run_at"])
    .execute();
  // NULLs never collide, on all three databases: only keyed jobs are unique. Partial where the
  // database allows it, so that an enqueue without a key writes one index entry less (about a
  // quarter of the insert's cost on SQLite, bench/jobs/run.mjs); MySQL has no partial index.
  const uniqueKey = db.schema
    .createIndex(`${JOBS_TABLE}_unique_key_idx`)
    .on(JOBS_TABLE)
    .column("unique_key")
    .unique();
  await (dialect === "mysql" ? uniqueKey : uniqueKey.where("unique_key", "is not", null)).execute();
  await db.schema
    .createTable(JOB_SCHEDULES_TABLE)
    .addColumn("name", "varchar(200)", (c) => c.primaryKey())
    .addColumn("last_tick", "bigint", (c) => c.notNull())
    .execute();
}

/** Drops the jobs tables (the migration's `down`). */
export async function dropJobTables(db: Queryable): Promise<void> {
  await db.schema.dropTable(JOB_SCHEDULES_TABLE).ifExists().execute();
  await db.schema.dropTable(JOBS_TABLE).ifExists().execute();
}

/** True when `error` says the jobs table does not exist (the migration has not run). */
export function isMissingJobsTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === "42P01" || code === "ER_NO_SUCH_TABLE") return true;
  return typeof message === "string" && /no such table: wisent_job/.test(message);
}
