import { WisentError } from "../../base/wisent-error.js";
import { jobsUrlSetting } from "../../config/settings.js";
import { openDatabase } from "../../data/database.js";
import { durationMs } from "../../jobs/duration.js";
import { formatJobTable, jobListing } from "../../jobs/job-listing.js";
import type { AppJobs } from "../../jobs/job-registry.js";
import { countJobs, discardJob, listJobs, retryFailed } from "../../jobs/job-store.js";
import type { JobState } from "../../jobs/jobs-table.js";
import { appEnv, databaseUrl, envName } from "../app-env.js";
import {
  type CommandHelp,
  formatHelp,
  guard,
  integerOption,
  parseCommandArgs,
  UsageError,
} from "../args.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { loadApp } from "./routes.js";

export const help: CommandHelp = {
  usage:
    "wisent jobs [list|work|retry|discard] [--json] [--state S] [--queues a,b] [--concurrency N] [--failed]",
  summary: [
    "The app's background jobs (the wisent_jobs table of its database).",
    "  list            the jobs waiting, running and failed, oldest first (the default)",
    "  work            perform jobs until SIGTERM or Ctrl-C: then take no more, let the running",
    "                  ones finish within --timeout, and give the others back to the queue",
    "  retry ID        put a failed job back in the queue, due now (--failed: every failed job)",
    "  discard ID      delete a job that waits or failed",
  ].join("\n"),
  options: [
    ["--json", "list: the jobs as a JSON array (payload, error and stack included)"],
    ["--state S", "list: only jobs in state S (queued, running or failed)"],
    ["--limit N", "list: at most N jobs (default 100)"],
    ["--queues a,b", "work: take jobs from these queues only (default every queue)"],
    ["--concurrency N", "work: jobs performed at once (default 5)"],
    ["--timeout D", "work: how long running jobs may finish after SIGTERM (default 25s)"],
    ["--failed", "retry: every failed job"],
  ],
  examples: [
    ["wisent jobs", "what waits, runs and failed"],
    ["wisent jobs --state failed --json", "failed jobs with their errors, for scripts"],
    ["wisent jobs work --queues mail,default --concurrency 10", "a worker process"],
    ["wisent jobs retry --failed", "run every failed job again"],
    ["wisent jobs discard 0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b", "drop one job"],
  ],
};

const STATES = new Set(["queued", "running", "failed"]);

/** `wisent jobs [list|work|retry|discard]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        json: { type: "boolean" },
        state: { type: "string" },
        limit: { type: "string" },
        queues: { type: "string" },
        concurrency: { type: "string" },
        timeout: { type: "string" },
        failed: { type: "boolean" },
      },
      2,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const [sub = "list", id] = positionals;
    if (sub === "work") return work(io, values);
    if (sub !== "list" && sub !== "retry" && sub !== "discard") {
      throw new UsageError(`unknown jobs command "${sub}": use list, work, retry or discard`);
    }
    const env = appEnv(io);
    if (/^rediss?:\/\//.test(jobsUrlSetting(env) ?? "")) {
      throw new WisentError(
        "E_USAGE",
        `JOBS_URL names Redis: the jobs are BullMQ's, not in the database's table that \`wisent jobs ${sub}\` reads; use BullMQ's tools (Queue.getJobs, bull-board)`,
      );
    }
    const db = await openDatabase(databaseUrl(env), {
      cwd: io.cwd,
      env: envName(env),
      poolSize: 1,
    });
    const out = new Output(io);
    try {
      if (sub === "list") return await list(io, db.kysely, values);
      if (sub === "retry") {
        if (values.failed === true ? id !== undefined : id === undefined) {
          throw new UsageError("retry takes a job's ID or --failed (every failed job), not both");
        }
        const count = await retryFailed(db.kysely, Date.now(), id === undefined ? undefined : [id]);
        if (id !== undefined && count === 0) {
          throw new WisentError(
            "E_USAGE",
            `no failed job ${id} (\`wisent jobs --state failed\` lists them)`,
          );
        }
        out.line(`${count} failed job${count === 1 ? "" : "s"} back in the queue`);
        return 0;
      }
      if (id === undefined) throw new UsageError("discard takes a job's ID");
      const found = await discardJob(db.kysely, id);
      if (found === "missing") throw new WisentError("E_USAGE", `no job ${id}`);
      if (found === "running") {
        throw new WisentError(
          "E_USAGE",
          `job ${id} is running: let it finish, or stop its worker first`,
        );
      }
      out.line(`discarded job ${id}`);
      return 0;
    } finally {
      await db.close();
    }
  });
}

async function list(
  io: CliIO,
  db: Parameters<typeof listJobs>[0],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const state = values.state;
  if (state !== undefined && (typeof state !== "string" || !STATES.has(state))) {
    throw new UsageError(`--state must be queued, running or failed, got ${JSON.stringify(state)}`);
  }
  const limit = integerOption(values, "limit", 100, { min: 1, max: 100_000 });
  const rows = await listJobs(db, { ...(state ? { state: state as JobState } : {}), limit });
  if (values.json) {
    io.stdout.write(`${JSON.stringify(rows.map(jobListing), null, 2)}\n`);
    return 0;
  }
  const counts = await countJobs(db);
  if (rows.length > 0) io.stdout.write(`${formatJobTable(rows)}\n`);
  io.stdout.write(`${counts.queued} queued, ${counts.running} running, ${counts.failed} failed\n`);
  return 0;
}

/** `wisent jobs work`: the app's worker in this process, until SIGTERM or SIGINT. */
async function work(
  io: CliIO,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const queues =
    typeof values.queues === "string"
      ? values.queues
          .split(",")
          .map((q) => q.trim())
          .filter(Boolean)
      : undefined;
  if (queues?.length === 0) throw new UsageError("--queues needs at least one queue name");
  const concurrency = integerOption(values, "concurrency", 5, { min: 1, max: 1000 });
  let timeoutMs: number;
  try {
    timeoutMs = durationMs(
      typeof values.timeout === "string" ? values.timeout : "25s",
      "--timeout",
    );
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const app = (await loadApp(io)) as { backgroundJobs?: AppJobs };
  const jobs = app.backgroundJobs;
  if (!jobs) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      "src/app.ts declares no background jobs: add app.jobs(db), then app.job(...) for each job (`wisent g job` does)",
    );
  }
  await jobs.database.check();
  const worker = jobs.worker({ ...(queues ? { queues } : {}), concurrency });
  const out = new Output(io);
  worker.start();
  const names = [...jobs.jobs.keys()];
  out.line(
    `working: ${names.length} job${names.length === 1 ? "" : "s"} (${names.join(", ")}), queues ${queues?.join(", ") ?? "all"}, concurrency ${concurrency}, ${jobs.recurring.length} recurring (${process.pid})`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  out.line(
    `${signal}: taking no more jobs, waiting up to ${timeoutMs / 1000}s for ${worker.busy} running`,
  );
  const stopped = await worker.stop(timeoutMs);
  out.line(`stopped: ${stopped.finished} finished, ${stopped.released} given back to the queue`);
  await jobs.database.close();
  return 0;
}
