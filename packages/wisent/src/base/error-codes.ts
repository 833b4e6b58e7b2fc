/**
 * Every kind of error Wisent throws, by its stable `code` (`error.code`): what it means and what
 * to do. docs/reference/errors.md is generated from this table (`npm run docs:reference`), and
 * a test fails when the committed file is stale. A code never changes meaning once published;
 * messages may improve.
 */
export interface ErrorCodeInfo {
  /** What happened, in one sentence. */
  readonly meaning: string;
  /** What to do about it. */
  readonly fix: string;
  /**
   * The HTTP status a request that meets it answers with (`errorResponse` reads it; an
   * `HttpError` carries its own). Without one, the error is the app's or the operator's, and a
   * request answers 500.
   */
  readonly status?: number;
}

export const ERROR_CODES = {
  E_HTTP: {
    meaning:
      "A handler or middleware answered with an HTTP error status (`throw new HttpError(404, ...)`).",
    fix: "Read the message: it is meant for the client. Throw your own with `new HttpError(status, message)`.",
  },
  E_ROUTE_NOT_FOUND: {
    status: 404,
    meaning: "No route matched the request's method and path.",
    fix: "Check the path against `wisent routes`; in development the 404 page lists the app's routes.",
  },
  E_VALIDATION: {
    status: 422,
    meaning: "Submitted fields failed their rules (a `ValidationErrors`, keyed by field).",
    fix: "Show `errors.get(field)` next to each field and let the user correct them.",
  },
  E_VALIDATION_FAILED: {
    status: 422,
    meaning: "A model's `create` or `update` was given attributes its schema refuses.",
    fix: "Catch `ValidationFailedError` and show its `errors`, or validate first with `validate(model.schema, input)`.",
  },
  E_DEPENDENT_RECORDS: {
    status: 409,
    meaning:
      "A record cannot be deleted: rows of other tables point to it through a restricting foreign key.",
    fix: "Delete or move the dependent rows first, or declare the reference with `{cascade}` (ON DELETE CASCADE).",
  },
  E_UNIQUE_VIOLATION: {
    status: 422,
    meaning:
      "A write the database refused because a unique index already holds the value (a query written by hand; a model's `create`/`update` reports it as `E_VALIDATION_FAILED`).",
    fix: "Show `errors` (keyed by the field) to the user, or check the value first; declare the field `unique` in the model to have it checked before the write.",
  },
  E_MISSING_REFERENCE: {
    status: 422,
    meaning:
      "A write the database refused because a foreign key names a record that does not exist (a query written by hand).",
    fix: "Show `errors` (keyed by the foreign key's field) to the user, or check the referenced record exists first.",
  },
  E_INVALID_VALUE: {
    status: 400,
    meaning:
      "The database refused a value the column cannot hold (a NUL byte in PostgreSQL text, a string longer than its column, a number out of range, a malformed date).",
    fix: "Validate the field in the model's schema (`z.string().max(255)`, a number's range) so the request gets a 422 naming it.",
  },
  E_MISSING_DEPENDENCY: {
    meaning:
      "An optional package the app's configuration needs (a database driver, ioredis, nodemailer, the S3 client) is not installed.",
    fix: "Run the `npm install <package>` the message names, in the app's folder.",
  },
  E_NATIVE_BINARY: {
    meaning: "A native addon (better-sqlite3) has no binary for this platform or Node version.",
    fix: "Run `npm ci` (or `npm rebuild better-sqlite3`) in the app's folder with the Node version that runs it.",
  },
  E_PORT_IN_USE: {
    meaning:
      "The port the server should listen on is taken by another process (the message names it).",
    fix: "Stop that process, or choose another port (`PORT=3001`, `wisent dev --port 3001`).",
  },
  E_CONFIG_INVALID: {
    meaning:
      "An environment variable or option has a value Wisent cannot use (the message names it and the accepted values).",
    fix: "Correct the variable in the environment or the app's `.env` (docs/reference/environment.md lists them all).",
  },
  E_DATABASE_URL: {
    meaning: "`DATABASE_URL` (or the URL given to `database()`) is not a URL Wisent can open.",
    fix: "Use `sqlite:db/development.sqlite`, `postgres://user:pass@host/db` or `mysql://user:pass@host/db`.",
  },
  E_DATABASE_UNAVAILABLE: {
    status: 503,
    meaning:
      "The database could not be opened or reached (the message names the masked URL and the cause).",
    fix: "Start the database server, or correct `DATABASE_URL`; `wisent db create` creates a missing database.",
  },
  E_STORAGE_URL: {
    meaning: "`STORAGE_URL` is not a storage location Wisent knows.",
    fix: "Use `file:storage` (a folder) or `s3://bucket?region=eu-west-1`.",
  },
  E_STORAGE_NAMESPACE: {
    meaning:
      "Stored files are kept under `<app>/<environment>/`, and the app's name (its package.json `name`) or the environment (`GO_ENV`) cannot be read or used as a folder name.",
    fix: "Run the app and `wisent storage` in the app's folder, with a package.json `name` and a `GO_ENV` of letters, digits, `.`, `_` and `-`.",
  },
  E_STORAGE_WRITE: {
    status: 503,
    meaning:
      "An uploaded file could not be stored (the log line names the path, the cause such as `EACCES` or `ENOSPC`, and `STORAGE_URL`); the request answers 503 and its record is not saved.",
    fix: "Make the storage folder writable by the app's user (in the generated image, `storage/` belongs to `node`; mount the volume at `/app/storage`), free space, or set `STORAGE_URL` to a bucket the app may write.",
  },
  E_MIGRATION: {
    meaning: "A migration could not be found, loaded or run (the message names it).",
    fix: "Check the file in migrations/ exports `up` (and `down`), then run `wisent migrate` again.",
  },
  E_NOT_AN_APP: {
    meaning:
      "A `wisent` command that needs an app ran outside one (no `src/app.ts` or `package.json`).",
    fix: "Run the command in the root folder of an app made by `wisent new`.",
  },
  E_USAGE: {
    meaning: "A `wisent` command was given arguments or flags it does not accept.",
    fix: "Run the command with `--help` for its usage and examples.",
  },
  E_ATTRIBUTE_TYPE: {
    meaning: "A generator attribute (`name:type`) names an impossible type or size.",
    fix: "Run `wisent g r --help` for the attribute types and their options.",
  },
  E_APP_MISCONFIGURED: {
    meaning:
      "The app's own code declares or does something Wisent cannot serve (a route name used twice, a route that can never match, middleware in the wrong order, a missing option, a handler that returns no Response or calls `next()` twice, a path parameter the route does not have).",
    fix: "Read the message: it names the declaration or the call to change in the app's code.",
  },
  E_APP_FILE_INVALID: {
    meaning:
      "A file Wisent keeps in the app (`.wisent/generated.json`, the generators' record) cannot be read.",
    fix: "Fix the file as the message says, or delete it (the generators write it again).",
  },
  E_INVALID_ARGUMENT: {
    meaning:
      "A function of Wisent's API was called with an argument it does not accept (the message names the function and the argument, and what it accepts).",
    fix: "Pass what the message says; the API reference lists each function's parameters.",
  },
  E_JSX_INVALID: {
    meaning:
      "A `wisent/jsx` template asked for markup Wisent does not render: a Promise (components render synchronously), an invalid tag name, a function as an attribute value, `dangerouslySetInnerHTML`.",
    fix: "Load data in the action and pass it as props; write `rawHtml(trusted)` for trusted markup; drop the attribute the message names.",
  },
  E_SESSION_TOO_LARGE: {
    meaning:
      "The session would not fit in its cookie (browsers keep at most 4096 bytes of name, value and attributes).",
    fix: "Keep ids in the session, not records or lists; pending flash messages are dropped first.",
  },
  E_TRANSACTION_FINISHED: {
    meaning:
      "A query used the request's transaction (`c.var.db`, `c.tx()`) after the request had answered: it was committed or rolled back already.",
    fix: "Await the work inside the handler, or enqueue a job (`c.enqueue(...)`) for work that outlives the request.",
  },
  E_DATABASE_CLOSED: {
    meaning:
      "A query ran on a database that had been closed (`db.close()`, or the app shutting down).",
    fix: "Close the database last (the App closes its own on shutdown); open another with `database()` in a script that needs one after.",
  },
  E_LIVE_EVENT_TOO_LARGE: {
    meaning:
      "A live broadcast is larger than PostgreSQL's NOTIFY carries (its payload stays under 8000 bytes), with `LIVE_URL` set to a `postgres://` URL.",
    fix: "Broadcast less (the live event carries the record's JSON: keep large fields out of it), or use Redis (`LIVE_URL=redis://...`).",
  },
  E_CLIENT_REQUEST: {
    meaning:
      "The typed client (`wisent/client`) could not make a call: the app's OpenAPI document could not be read or has no such operation, or a live stream was refused.",
    fix: "Check the base URL and that the app serves its document (`app.openapi(...)`), or pass `createClient({ document })`; regenerate the client after changing the app's routes.",
  },
  E_BUILD: {
    meaning:
      "`wisent start` found `dist/` older than the sources and cannot build it here: the folder is not writable, or another build holds its lock.",
    fix: "Run `wisent build` where the app is built (the Dockerfile's build stage does); remove `.wisent/build.lock` if no build runs.",
  },
  E_TEST_ASSERTION: {
    meaning:
      "An assertion of `wisent/testing` did not hold (`assertSent`, `assertEnqueued`, `assertBroadcast`, ...): the message says what was expected and what happened.",
    fix: "Read the message: it lists what was sent, enqueued or broadcast instead.",
  },
  E_TEST_SETUP: {
    meaning:
      "A helper of `wisent/testing` could not do its work: the test database could not be prepared, the app refused a test sign-in, no app declared its jobs, a response to follow is not a redirect.",
    fix: "Read the message: it names what the helper needs (an import of the app, an option, `GO_ENV=test`).",
  },
  E_JOB_PAYLOAD_INVALID: {
    meaning:
      "A job's payload failed its schema: when it was enqueued (thrown to the caller), or when a worker read it back (the job fails without retrying).",
    fix: "Pass what the job's `payload` schema accepts; the message names the field. Payloads are JSON: no Dates, Maps or class instances.",
  },
  E_JOBS_TABLE_MISSING: {
    meaning:
      "The jobs table (`wisent_jobs`) does not exist: the migration that creates it has not run.",
    fix: "Run `wisent migrate` (`wisent g job` writes the migration; `createJobTables` is what it calls).",
  },
  E_JOBS_UNAVAILABLE: {
    status: 503,
    meaning:
      "An enqueue inside a request found the jobs' engine (Redis, from `JOBS_URL`) not answering; the request answers 503 with `Retry-After` and its writes are rolled back, so no record is committed without its job. The log line names `JOBS_URL` (masked) and the cause.",
    fix: "Start Redis or correct `JOBS_URL`; leave it unset to keep the jobs in the app's database, where an enqueue is part of the request's transaction.",
  },
  E_JOB_UNKNOWN: {
    meaning:
      "A worker found a job whose name no registered job has (a job removed from the code, or an app that forgot `app.job(...)`).",
    fix: "Register the job with `app.job(Job)`, or discard the waiting jobs with `wisent jobs discard ID`.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A stable error code: `E_UNIQUE_VIOLATION`, `E_MISSING_DEPENDENCY`, ... */
export type ErrorCode = keyof typeof ERROR_CODES;
