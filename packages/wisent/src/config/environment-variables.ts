/**
 * Every environment variable Wisent reads, in one table: its default, what it means and the
 * environments it matters in. docs/reference/environment.md is generated from this table
 * (`npm run docs:reference`; a test fails when the committed file is stale), and the code reads
 * a variable only through `env.ts` here, with a name from this table (a test checks that too).
 */
export interface EnvironmentVariable {
  readonly name: string;
  /** What applies when it is unset or empty, in words. */
  readonly default: string;
  /** What it does, and its syntax. */
  readonly meaning: string;
  /** Where it matters: `all`, `production`, `development`, `test`, or `internal` (set by Wisent). */
  readonly environments: string;
}

export const ENVIRONMENT_VARIABLES = [
  {
    name: "GO_ENV",
    default: "`NODE_ENV`",
    meaning:
      "The environment: `development`, `test` or `production`. Any other name (`staging`) runs with production's defaults (a session secret required, HTTPS enforced, allowed hosts checked, no stack traces).",
    environments: "all",
  },
  {
    name: "NODE_ENV",
    default: "`development`",
    meaning: "The environment when `GO_ENV` is unset.",
    environments: "all",
  },
  {
    name: "PORT",
    default: "`3000`",
    meaning: "The port `app.listen()` and `wisent start` listen on (0-65535; 0 picks a free one).",
    environments: "all",
  },
  {
    name: "HOST",
    default: "`127.0.0.1`",
    meaning:
      "The interface the server listens on (`0.0.0.0` in a container); a value that is a URL is ignored.",
    environments: "all",
  },
  {
    name: "APP_URL",
    default: "none",
    meaning:
      "The app's public URL (`https://shop.example`): the origin of absolute links (password-reset mail, `appOrigin()`), and an allowed host. Read once, at the app's first request that needs it: a change while it runs takes a restart.",
    environments: "production",
  },
  {
    name: "DATABASE_URL",
    default: "`sqlite:db/<environment>.sqlite`",
    meaning:
      "The database: `sqlite:db/development.sqlite`, `postgres://user:pass@host:5432/db` or `mysql://user:pass@host:3306/db`. In `test`, the one in `.env` becomes its `_test` twin.",
    environments: "all",
  },
  {
    name: "JOBS_URL",
    default: "none: jobs in the app's database",
    meaning:
      "Where background jobs live: unset for the app's database (the `wisent_jobs` table, enqueued in the request's transaction), or `redis://host:6379/0` for BullMQ (the optional `bullmq` package; a job enqueued in a request is added after the commit).",
    environments: "all",
  },
  {
    name: "LIVE_MAX_CONNECTIONS",
    default: "10000",
    meaning:
      "The live event streams one process serves at most; a subscription beyond it is answered 503 with `Retry-After` (the browser reconnects).",
    environments: "all",
  },
  {
    name: "LIVE_URL",
    default: "none: in this process (between the workers of `wisent start --workers`)",
    meaning:
      "How live resources' broadcasts reach the other processes: unset for this process only (and the workers of one `wisent start --workers N`), `postgres://...` for PostgreSQL LISTEN/NOTIFY (use the app's `DATABASE_URL`), `redis://host:6379` for Redis pub/sub (the optional `ioredis` package), or `memory`.",
    environments: "all",
  },
  {
    name: "TEST_DATABASE_URL",
    default: "`.env`'s `DATABASE_URL` with `_test` appended",
    meaning: "The test environment's database, when `DATABASE_URL` is not exported.",
    environments: "test",
  },
  {
    name: "POOL_SIZE",
    default: "`10`",
    meaning: "Connections each process keeps to PostgreSQL or MySQL (1-1000).",
    environments: "all",
  },
  {
    name: "SESSION_SECRET",
    default: "development: a random secret kept in the checkout; test: a random one per run",
    meaning:
      "The secret session cookies are sealed with, at least 32 characters (`npx wisent secret` makes one). Several, comma-separated, rotate: the first seals, all unseal. Required in production.",
    environments: "production",
  },
  {
    name: "ALLOWED_HOSTS",
    default: "the loopback names and `APP_URL`'s host",
    meaning:
      "Comma-separated host names `hostAuthorization()` accepts in the `Host` header (`shop.example, .shop.example` for subdomains).",
    environments: "production",
  },
  {
    name: "TRUSTED_PROXIES",
    default: "none",
    meaning:
      "Addresses and CIDR ranges (comma- or space-separated) of proxies whose forwarding header (`TRUSTED_PROXY_HEADER`) is believed: the client's address (rate limits, logs) and scheme (force-SSL, CSRF's origin). From any other peer those headers are ignored. Read once, at the app's first request that needs it (with `TRUSTED_PROXY_HEADER`): a change while it runs takes a restart.",
    environments: "production",
  },
  {
    name: "TRUSTED_PROXY_HEADER",
    default: "`x-forwarded`",
    meaning:
      "The header the trusted proxies write, the only one read: `x-forwarded` (`X-Forwarded-For` and `X-Forwarded-Proto`) or `forwarded` (RFC 7239's `Forwarded: for=...;proto=...`). The other is ignored: a proxy passes it through as the client wrote it.",
    environments: "production",
  },
  {
    name: "REDIS_URL",
    default: "`redis://127.0.0.1:6379` for a Redis store; unset: sign-in limits count in memory",
    meaning:
      "The Redis server rate limits count in (`redisStore()`); when set, sign-in limits use it too, shared by every process.",
    environments: "production",
  },
  {
    name: "SMTP_URL",
    default: "none: development and test keep mail in memory and log it",
    meaning:
      "The SMTP server mail is sent through (`smtp://user:pass@host:587`). An app that makes a `mailer()` (a web app after `wisent g auth`) does not start in production-like environments without it, nor without the package nodemailer.",
    environments: "production",
  },
  {
    name: "MAIL_FROM",
    default: "`no-reply@localhost`",
    meaning: "The sender of the mail the app sends.",
    environments: "all",
  },
  {
    name: "STORAGE_URL",
    default:
      "the app's `storage/` folder (`tmp/test-storage/` in the test environment, emptied after each run)",
    meaning:
      "Where uploaded files are kept: `file:uploads` (a folder) or `s3://bucket?region=eu-west-1` (`endpoint=` for an S3-compatible server, `s3://KEY:SECRET@bucket` or the AWS SDK's variables for credentials). Each app keeps its files under `<app>/<environment>/` there (its package.json `name`, `GO_ENV`), so apps and environments may share one.",
    environments: "all",
  },
  {
    name: "AWS_REGION",
    default: "`AWS_DEFAULT_REGION`, else `us-east-1`",
    meaning: "The S3 region when `STORAGE_URL` names none.",
    environments: "all",
  },
  {
    name: "AWS_DEFAULT_REGION",
    default: "`us-east-1`",
    meaning: "The S3 region when neither `STORAGE_URL` nor `AWS_REGION` names one.",
    environments: "all",
  },
  {
    name: "ASSETS_MAX_AGE",
    default: "`31536000` (a year)",
    meaning:
      "Seconds browsers may cache the files `app.serveFiles()` serves (`Cache-Control: max-age`).",
    environments: "production",
  },
  {
    name: "PAGINATION_COUNT_LIMIT",
    default: "`10000`",
    meaning:
      "Lists up to this many rows are counted exactly; longer ones report the database's estimate (`configurePagination()` overrides it).",
    environments: "all",
  },
  {
    name: "PAGINATION_MAX_OFFSET",
    default: "`10000`",
    meaning:
      "The deepest `page` offset, in rows, served on a list longer than the count limit; deeper pages answer 400 naming the `after` cursor.",
    environments: "all",
  },
  {
    name: "UV_THREADPOOL_SIZE",
    default: "`4` (Node's)",
    meaning: "Node's thread pool; password hashing runs at most half of it at once.",
    environments: "production",
  },
  {
    name: "NODE_OPTIONS",
    default: "none (the Dockerfile sets `--max-semi-space-size=8`)",
    meaning:
      "Node's own flags for every process of the app. A `--max-semi-space-size` here replaces the cap on V8's young generation that `wisent start --workers` gives its workers and the generated Dockerfile sets (8 MiB a semi-space: the resident set levels off instead of growing by ~100 MiB under sustained load).",
    environments: "production",
  },
  {
    name: "NO_COLOR",
    default: "unset",
    meaning: "Any value turns off colour in the CLI's and the development logger's output.",
    environments: "development",
  },
  {
    name: "FORCE_COLOR",
    default: "unset",
    meaning: "`0` turns colour off, any other value on, whether or not the output is a terminal.",
    environments: "development",
  },
  {
    name: "TERM",
    default: "the terminal's",
    meaning: "`dumb` turns colour off.",
    environments: "development",
  },
  {
    name: "WISENT_DEV_SUPERVISOR",
    default: "unset",
    meaning: "Set to `1` by `wisent dev` for the app it runs behind its dev server.",
    environments: "internal",
  },
  {
    name: "WISENT_DEV_URL",
    default: "unset",
    meaning: "The dev server's URL, set by `wisent dev`: the one the app prints.",
    environments: "internal",
  },
  {
    name: "WISENT_JOBS",
    default: "unset",
    meaning:
      "Set to `1` by `wisent dev` and `wisent start --jobs`: `app.listen()` also performs the app's background jobs in its process.",
    environments: "internal",
  },
  {
    name: "WISENT_NOTICES_SHOWN",
    default: "unset",
    meaning:
      "The start-up notices a process tree has printed (set by the first process; workers inherit it and stay quiet).",
    environments: "internal",
  },
] as const satisfies readonly EnvironmentVariable[];

/** The name of a variable Wisent reads. */
export type EnvironmentVariableName = (typeof ENVIRONMENT_VARIABLES)[number]["name"];
