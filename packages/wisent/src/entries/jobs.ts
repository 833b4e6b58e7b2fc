/**
 * `wisent/jobs`: background jobs on the app's own database. Declare a job with `defineJob`,
 * register it with `app.job(...)`, enqueue it through the request's transaction.
 *
 * @example
 * import { defineJob } from "wisent/jobs";
 * export const SendDigest = defineJob({
 *   name: "send_digest",
 *   payload: z.object({ email: z.email() }),
 *   async perform({ email }) { ... },
 * });
 * @module
 */
export type { Backoff } from "../jobs/backoff.js";
export {
  defineJob,
  type Enqueued,
  type EnqueueOptions,
  type Job,
  type JobRun,
  type JobSettings,
  type JobTarget,
} from "../jobs/define-job.js";
export type { Duration } from "../jobs/duration.js";
export type { AppJobs, WorkOptions } from "../jobs/job-registry.js";
export type { JobWorker } from "../jobs/job-worker.js";
export {
  createJobTables,
  dropJobTables,
  JOB_SCHEDULES_TABLE,
  JOBS_TABLE,
  type JobRow,
  type JobState,
} from "../jobs/jobs-table.js";
export type { RecurringSchedule } from "../jobs/recurring.js";
