import { CompiledQuery, sql } from "kysely";
import { WisentError } from "../base/wisent-error.js";
import type { DialectName } from "../data/database-url.js";
import { dialectOf } from "../data/dialect-of.js";
import { literalLimit } from "../data/literal-limit.js";
import type { Queryable } from "../data/queryable.js";
import { directSqlite } from "../data/sqlite-request-transaction.js";
import { isMissingJobsTable, JOBS_TABLE, type JobRow, type JobState } from "./jobs-table.js";

/** A job to write: everything but what the table fills in. */
export interface NewJob {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: string;
  readonly priority: number;
  readonly maxAttempts: number;
  readonly runAt: number;
  readonly uniqueKey?: string;
  readonly now: number;
}

/** What an insert did: `inserted` false when a job with the same unique key was waiting. */
export interface InsertedJob {
  readonly id: string;
  readonly inserted: boolean;
}

/** What a claim asks for. */
export interface ClaimRequest {
  /** Queues to take from (all when empty). */
  readonly queues: readonly string[];
  readonly limit: number;
  /** The claim's token, kept in `locked_by` while the jobs run. */
  readonly token: string;
  readonly now: number;
  readonly leaseMs: number;
}

/**
 * Runs `work`, turning a missing jobs table into an error that says how to make it (the database
 * answers "no such table" in its own words on each engine).
 */
export async function withJobsTable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isMissingJobsTable(error)) {
      throw new WisentError(
        "E_JOBS_TABLE_MISSING",
        `the jobs table ${JOBS_TABLE} does not exist: run \`wisent migrate\` (the migration \`wisent g job\` wrote creates it)`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The plain insert of a job, per dialect, its parameters in the order of `values` below. */
const INSERT_SQL: Partial<Record<DialectName, string>> = {};

/**
 * Writes a job through `db` (the request's transaction, so that it exists only if the request's
 * writes commit). With a unique key already held by a job not yet finished, writes nothing and
 * returns that job's id.
 */
export function insertJob(db: Queryable, job: NewJob): Promise<InsertedJob> {
  return withJobsTable(async () => {
    const dialect = dialectOf(db);
    const values = {
      id: job.id,
      name: job.name,
      queue: job.queue,
      payload: job.payload,
      priority: job.priority,
      state: "queued",
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_at: job.runAt,
      unique_key: job.uniqueKey ?? null,
      created_at: job.now,
    };
    if (job.uniqueKey === undefined) {
      // The statement compiled once per dialect: building and compiling it was most of an
      // enqueue's own cost (bench/jobs/run.mjs).
      INSERT_SQL[dialect] ??= db.insertInto(JOBS_TABLE).values(values).compile().sql;
      const compiled = INSERT_SQL[dialect];
      const parameters = Object.values(values);
      // A request's transaction on SQLite runs it on its connection directly, as models do.
      if (directSqlite(db)?.rows(compiled, parameters) === undefined) {
        await db.executeQuery(CompiledQuery.raw(compiled, parameters));
      }
      return { id: job.id, inserted: true };
    }
    // No error on a taken key: on PostgreSQL an error would end the request's transaction.
    const insert = db.insertInto(JOBS_TABLE).values(values);
    if (dialect !== "mysql") {
      const result = await insert
        // The predicate names the partial index (tables made before it have a full one: it
        // matches that too).
        .onConflict((oc) => oc.column("unique_key").where("unique_key", "is not", null).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return { id: job.id, inserted: true };
    } else {
      // mysql2 counts a duplicate "updated" to its own values as a row (CLIENT_FOUND_ROWS), so
      // whose id holds the key says which happened.
      await insert.onDuplicateKeyUpdate({ id: sql.ref("id") }).execute();
    }
    const held = await db
      .selectFrom(JOBS_TABLE)
      .select("id")
      .where("unique_key", "=", job.uniqueKey)
      .executeTakeFirst();
    const id = (held?.id as string | undefined) ?? job.id;
    return { id, inserted: id === job.id };
  });
}

/**
 * Takes up to `limit` due jobs of the queues for one worker: each becomes `running`, holding the
 * claim's token and a lease until `now + leaseMs`, one more attempt counted. Two workers never
 * take the same job: PostgreSQL and MySQL/MariaDB skip the rows another claim has locked (`FOR
 * UPDATE SKIP LOCKED`); SQLite's claim is one transaction begun with `BEGIN IMMEDIATE`, which
 * holds the database's write lock from its first statement.
 */
export function claimJobs(db: Queryable, claim: ClaimRequest): Promise<JobRow[]> {
  return withJobsTable(async () => {
    // An idle worker polls: a plain read first, so that nothing due costs no write lock.
    let anyDue = db
      .selectFrom(JOBS_TABLE)
      .select("id")
      .where("state", "=", "queued")
      .where("run_at", "<=", claim.now);
    if (claim.queues.length > 0) anyDue = anyDue.where("queue", "in", claim.queues);
    if (!(await anyDue.limit(literalLimit(1)).executeTakeFirst())) return [];
    return db.transaction().execute(async (trx) => {
      const dialect = dialectOf(trx);
      let due = trx
        .selectFrom(JOBS_TABLE)
        .select("id")
        .where("state", "=", "queued")
        .where("run_at", "<=", claim.now)
        .orderBy("priority", "desc")
        .orderBy("run_at")
        .orderBy("id")
        .limit(literalLimit(claim.limit));
      if (claim.queues.length > 0) due = due.where("queue", "in", claim.queues);
      if (dialect !== "sqlite") due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id as string);
      if (ids.length === 0) return [];
      await trx
        .updateTable(JOBS_TABLE)
        .set({
          state: "running",
          attempts: sql`attempts + 1`,
          locked_by: claim.token,
          locked_until: claim.now + claim.leaseMs,
        })
        .where("id", "in", ids)
        .execute();
      const rows = (await trx
        .selectFrom(JOBS_TABLE)
        .selectAll()
        .where("id", "in", ids)
        .execute()) as JobRow[];
      const order = new Map(ids.map((id, i) => [id, i]));
      return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    });
  });
}

/** Deletes a job that succeeded, if the claim still holds it; false when it does not. */
export async function completeJob(db: Queryable, id: string, token: string): Promise<boolean> {
  const result = await db
    .deleteFrom(JOBS_TABLE)
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A failed run: back to the queue at `retryAt`, or failed for good when `retryAt` is undefined. */
export async function failJob(
  db: Queryable,
  id: string,
  token: string,
  error: string,
  now: number,
  retryAt: number | undefined,
): Promise<boolean> {
  const update =
    retryAt === undefined
      ? {
          state: "failed",
          failed_at: now,
          last_error: error,
          locked_by: null,
          locked_until: null,
          unique_key: null,
        }
      : {
          state: "queued",
          run_at: retryAt,
          last_error: error,
          locked_by: null,
          locked_until: null,
        };
  const result = await db
    .updateTable(JOBS_TABLE)
    .set(update)
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Gives a running job back to the queue at once (a worker stopping before it finished), the
 * attempt not counted.
 */
export async function releaseJob(db: Queryable, id: string, token: string, now: number) {
  await db
    .updateTable(JOBS_TABLE)
    .set({
      state: "queued",
      run_at: now,
      attempts: sql`attempts - 1`,
      locked_by: null,
      locked_until: null,
    })
    .where("id", "=", id)
    .where("locked_by", "=", token)
    .execute();
}

/** Extends the lease of every job a worker's claims hold (tokens `<workerId>/<n>`). */
export async function extendLeases(db: Queryable, workerId: string, until: number): Promise<void> {
  await db
    .updateTable(JOBS_TABLE)
    .set({ locked_until: until })
    .where("state", "=", "running")
    .where("locked_by", "like", `${workerId}/%`)
    .execute();
}

/**
 * Jobs whose worker stopped without a word (killed, or its machine gone): their lease has run out
 * with no heartbeat. Those with attempts left go back to the queue, due at once; the others fail.
 * Returns how many were requeued and failed.
 */
export async function rescueExpired(
  db: Queryable,
  now: number,
): Promise<{ requeued: number; failed: number }> {
  return withJobsTable(async () => {
    const failed = await db
      .updateTable(JOBS_TABLE)
      .set({
        state: "failed",
        failed_at: now,
        last_error: "the worker running it stopped (its lease ran out with no heartbeat)",
        locked_by: null,
        locked_until: null,
        unique_key: null,
      })
      .where("state", "=", "running")
      .where("locked_until", "<", now)
      .where(sql<boolean>`attempts >= max_attempts`)
      .executeTakeFirst();
    const requeued = await db
      .updateTable(JOBS_TABLE)
      .set({ state: "queued", run_at: now, locked_by: null, locked_until: null })
      .where("state", "=", "running")
      .where("locked_until", "<", now)
      .executeTakeFirst();
    return { requeued: Number(requeued.numUpdatedRows), failed: Number(failed.numUpdatedRows) };
  });
}

/** Jobs in a state (all when none), oldest first, up to `limit`. */
export function listJobs(
  db: Queryable,
  options: { state?: JobState; name?: string; ids?: readonly string[]; limit?: number } = {},
): Promise<JobRow[]> {
  return withJobsTable(async () => {
    let query = db.selectFrom(JOBS_TABLE).selectAll().orderBy("created_at").orderBy("id");
    if (options.state) query = query.where("state", "=", options.state);
    if (options.name) query = query.where("name", "=", options.name);
    if (options.ids) {
      if (options.ids.length === 0) return [];
      query = query.where("id", "in", options.ids);
    }
    if (options.limit !== undefined) query = query.limit(literalLimit(options.limit));
    return (await query.execute()) as JobRow[];
  });
}

/** How many jobs are in each state. */
export function countJobs(db: Queryable): Promise<Record<JobState, number>> {
  return withJobsTable(async () => {
    const rows = await db
      .selectFrom(JOBS_TABLE)
      .select(["state", (eb) => eb.fn.countAll().as("count")])
      .groupBy("state")
      .execute();
    const counts: Record<JobState, number> = { queued: 0, running: 0, failed: 0 };
    for (const row of rows) counts[row.state as JobState] = Number(row.count);
    return counts;
  });
}

/** Puts failed jobs back in the queue, due now, with their attempts from zero (all with no ids). */
export function retryFailed(db: Queryable, now: number, ids?: readonly string[]): Promise<number> {
  return withJobsTable(async () => {
    let update = db
      .updateTable(JOBS_TABLE)
      .set({ state: "queued", run_at: now, attempts: 0, failed_at: null })
      .where("state", "=", "failed");
    if (ids) update = update.where("id", "in", ids);
    return Number((await update.executeTakeFirst()).numUpdatedRows);
  });
}

/** Deletes a job that is not running; what it found: `deleted`, `running` or `missing`. */
export function discardJob(db: Queryable, id: string): Promise<"deleted" | "running" | "missing"> {
  return withJobsTable(async () => {
    const result = await db
      .deleteFrom(JOBS_TABLE)
      .where("id", "=", id)
      .where("state", "!=", "running")
      .executeTakeFirst();
    if (Number(result.numDeletedRows) > 0) return "deleted";
    const row = await db
      .selectFrom(JOBS_TABLE)
      .select("state")
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? "running" : "missing";
  });
}
