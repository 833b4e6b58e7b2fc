/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
import type { Context, Handler } from "hono";
import { HttpError } from "../base/http-error.js";
import { formatJobTable } from "../jobs/job-listing.js";
import type { AppJobs } from "../jobs/job-registry.js";
import { countJobs, discardJob, listJobs, retryFailed } from "../jobs/job-store.js";
import type { JobRow } from "../jobs/jobs-table.js";
import type { FC } from "../jsx/html.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { Fragment, h } from "../jsx/jsx-runtime.js";
import { renderToString } from "../jsx/render.js";

/** Options of `app.jobsDashboard`. */
export interface JobsDashboardOptions {
  /**
   * Who may see and act on the jobs; required outside development and test, where the dashboard
   * is not mounted without it. A request it refuses gets a 404.
   *
   * @example
   * { authorize: (c) => c.currentUser()?.email === "ops@example.com" }
   */
  readonly authorize?: (c: Context) => boolean | Promise<boolean>;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}code,pre{font:12px ui-monospace,monospace}pre{white-space:pre-wrap;margin:0}.counts span{margin-right:1.5rem}form{display:inline}button{cursor:pointer}`;

/** The CSRF field, when the app's forms need one (its `csrf()` middleware is in use). */
function csrfInput(c: Context) {
  let token: string | undefined;
  try {
    token = (c as Context & { csrfToken?: () => string }).csrfToken?.();
  } catch {
    token = undefined;
  }
  return token ? <input type="hidden" name="authenticity_token" value={token} /> : null;
}

const Rows: FC<{ rows: readonly JobRow[]; c: Context; base: string; failed?: boolean }> = ({
  rows,
  c,
  base,
  failed,
}) => (
  <table>
    <thead>
      <tr>
        <th>Job</th>
        <th>Queue</th>
        <th>Attempts</th>
        <th>{failed ? "Failed at" : "Run at"}</th>
        <th>Payload</th>
        <th>{failed ? "Error" : "Last error"}</th>
        <th />
      </tr>
    </thead>
    <tbody>
      {rows.map((row) => (
        <tr>
          <td>
            {row.name}
            <br />
            <code>{row.id}</code>
          </td>
          <td>{row.queue}</td>
          <td>
            {row.attempts}/{row.max_attempts}
          </td>
          <td>{new Date(Number(failed ? row.failed_at : row.run_at)).toISOString()}</td>
          <td>
            <code>{row.payload}</code>
          </td>
          <td>
            {row.last_error ? (
              <details>
                <summary>{row.last_error.split("\n")[0]}</summary>
                <pre>{row.last_error}</pre>
              </details>
            ) : null}
          </td>
          <td>
            {failed ? (
              <form method="post" action={`${base}/${row.id}/retry`}>
                {csrfInput(c)}
                <button type="submit">Retry</button>
              </form>
            ) : null}
            {row.state === "running" ? null : (
              <form method="post" action={`${base}/${row.id}/discard`}>
                {csrfInput(c)}
                <button type="submit">Discard</button>
              </form>
            )}
          </td>
        </tr>
      ))}
    </tbody>
  </table>
);

/** The dashboard's page: counts, then the failed, running and waiting jobs (100 of each at most). */
async function page(c: Context, jobs: AppJobs, base: string): Promise<string> {
  const db = jobs.database.kysely;
  const [counts, failed, running, queued] = await Promise.all([
    countJobs(db),
    listJobs(db, { state: "failed", limit: 100 }),
    listJobs(db, { state: "running", limit: 100 }),
    listJobs(db, { state: "queued", limit: 100 }),
  ]);
  const body = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Jobs</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <h1>Jobs</h1>
        <p class="counts">
          <span>{counts.queued} queued</span>
          <span>{counts.running} running</span>
          <span>{counts.failed} failed</span>
          <span>
            {jobs.jobs.size} registered: {[...jobs.jobs.keys()].join(", ")}
          </span>
          <span>{jobs.recurring.length} recurring</span>
        </p>
        <h2>Failed</h2>
        {failed.length > 0 ? (
          <form method="post" action={`${base}/retry-failed`}>
            {csrfInput(c)}
            <button type="submit">Retry every failed job</button>
          </form>
        ) : null}
        <Rows rows={failed} c={c} base={base} failed />
        <h2>Running</h2>
        <Rows rows={running} c={c} base={base} />
        <h2>Queued</h2>
        <Rows rows={queued} c={c} base={base} />
      </body>
    </html>
  );
  return `<!doctype html>${renderToString(body)}`;
}

/**
 * The handlers of the jobs dashboard under `base`: GET the page (or `?format=text`, the table
 * `wisent jobs` prints), POST `/{job_id}/retry`, `/{job_id}/discard` and `/retry-failed`, each
 * answering 303 back to the page.
 */
export function jobsDashboardHandlers(
  jobs: AppJobs,
  base: string,
  options: JobsDashboardOptions,
): { show: Handler; retry: Handler; discard: Handler; retryFailed: Handler } {
  const allowed = async (c: Context) => {
    if (options.authorize && !(await options.authorize(c))) {
      throw new HttpError(404, `path not found: ${c.req.method} ${c.req.path}`);
    }
  };
  const back = (c: Context) => c.redirect(base, 303);
  return {
    show: async (c) => {
      await allowed(c);
      if (c.req.query("format") === "text") {
        return c.text(`${formatJobTable(await listJobs(jobs.database.kysely, { limit: 1000 }))}\n`);
      }
      return c.html(await page(c, jobs, base));
    },
    retry: async (c) => {
      await allowed(c);
      await retryFailed(jobs.database.kysely, Date.now(), [c.req.param("job_id") as string]);
      return back(c);
    },
    discard: async (c) => {
      await allowed(c);
      await discardJob(jobs.database.kysely, c.req.param("job_id") as string);
      return back(c);
    },
    retryFailed: async (c) => {
      await allowed(c);
      await retryFailed(jobs.database.kysely, Date.now());
      return back(c);
    },
  };
}
