/**
 * The typed settings read from the environment (`GO_ENV`, `PORT`, `HOST`, ...), for the app at
 * run time and for the CLI, which passes the app's environment (`.env` applied) as `env`.
 * @module
 */
import { recordedDatabaseEngine } from "./app-manifest.js";
import { ConfigError, type Env, envValue, integerSetting } from "./env.js";

/**
 * The environment the app runs in: `GO_ENV`, else `NODE_ENV`, else `development`.
 *
 * @param env - the variables to read (default `process.env`)
 * @returns the environment's name, as written (`production`, `staging`, ...)
 * @example
 * if (currentEnv() === "production") requireSecret();
 */
export function currentEnv(env: Env = process.env): string {
  return envValue("GO_ENV", env) || envValue("NODE_ENV", env) || "development";
}

/** The environments that may run without secrets, with development's conveniences. */
export const RELAXED_ENVIRONMENTS: ReadonlySet<string> = new Set(["development", "test"]);

/**
 * True when `envName` runs with production's defaults: `production`, and every name other than
 * exactly `development` or `test` (`staging`, `prod`, `Production`, ...), which must never get
 * development's forgeable defaults by a typo.
 *
 * @param envName - an environment's name
 * @returns false for exactly `development` and `test`, true for anything else
 * @example
 * isProductionLike("staging"); // true
 * isProductionLike("test");    // false
 */
export function isProductionLike(envName: string): boolean {
  return !RELAXED_ENVIRONMENTS.has(envName);
}

/**
 * True when the app runs with production's defaults (force-SSL, Secure cookies, a required
 * `SESSION_SECRET`, no stack traces): see {@link isProductionLike}.
 *
 * @param env - the variables to read (default `process.env`)
 * @returns whether the current environment is production-like
 * @example if (isProduction()) app.use(rateLimit({ limit: 100, window: 60 }));
 */
export function isProduction(env: Env = process.env): boolean {
  return isProductionLike(currentEnv(env));
}

/** The port to listen on: `PORT`, else 3000; anything but 0-65535 throws naming `PORT`. */
export function listenPort(env: Env = process.env): number {
  return integerSetting("PORT", 3000, { min: 0, max: 65_535 }, env);
}

/** The interface to listen on: `HOST` unless it is a URL, else 127.0.0.1. */
export function listenHost(env: Env = process.env): string {
  const raw = envValue("HOST", env);
  return raw && !/^https?:\/\//.test(raw) ? raw : "127.0.0.1";
}

/** The SQLite file of an environment, the database when `DATABASE_URL` is unset. */
export function defaultDatabaseUrl(envName: string): string {
  return `sqlite:db/${envName}.sqlite`;
}

const EXAMPLE_URLS = {
  postgres: "postgres://user:password@host:5432/name",
  mysql: "mysql://user:password@host:3306/name",
} as const;

/**
 * The database of an environment without `DATABASE_URL`: its SQLite file
 * (`sqlite:db/<env>.sqlite`), unless the app in `cwd` recorded another engine (package.json
 * `"wisent": { "database": "postgres" }`, written by `wisent new --db postgres`) and the
 * environment is production-like: then a {@link ConfigError} naming `DATABASE_URL`, never a
 * SQLite file nobody asked for.
 *
 * @example
 * fallbackDatabaseUrl("development", "/code/blog"); // "sqlite:db/development.sqlite"
 * fallbackDatabaseUrl("production", "/code/readinglist"); // throws: DATABASE_URL is not set ...
 */
export function fallbackDatabaseUrl(envName: string, cwd: string = process.cwd()): string {
  const engine = recordedDatabaseEngine(cwd);
  if (engine !== undefined && engine !== "sqlite" && isProductionLike(envName)) {
    throw new ConfigError(
      `DATABASE_URL is not set: this app runs on ${engine} (package.json "wisent": { "database": "${engine}" }), and the ${envName} environment does not fall back to SQLite. Set DATABASE_URL=${EXAMPLE_URLS[engine]} in the environment`,
    );
  }
  return defaultDatabaseUrl(envName);
}

/**
 * `DATABASE_URL`, else the environment's fallback ({@link fallbackDatabaseUrl}: its SQLite file,
 * or an error in a production-like environment of an app that recorded another engine).
 */
export function databaseUrlSetting(env: Env = process.env, cwd: string = process.cwd()): string {
  return envValue("DATABASE_URL", env) || fallbackDatabaseUrl(currentEnv(env), cwd);
}

/**
 * The one start-up line for an environment name Wisent does not know (undefined for
 * `development`, `test` and `production`).
 *
 * @example
 * unknownEnvironmentNotice("staging");
 * // 'environment "staging" is not development, test or production: running with production's defaults ...'
 */
export function unknownEnvironmentNotice(envName: string): string | undefined {
  if (envName === "production" || RELAXED_ENVIRONMENTS.has(envName)) return undefined;
  return `environment "${envName}" is not development, test or production: running with production's defaults (SESSION_SECRET required, HTTPS enforced, allowed hosts checked, no stack traces)`;
}

/** How live broadcasts travel: one process (`memory`), PostgreSQL LISTEN/NOTIFY or Redis pub/sub. */
export type LiveTransportSetting =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres" | "redis"; readonly url: string };

/**
 * `LIVE_URL`: unset or `memory` for this process (and the workers of one `wisent start
 * --workers`), a `postgres://` URL for LISTEN/NOTIFY or a `redis://` URL for pub/sub across
 * processes and machines.
 *
 * @example liveTransportSetting({ LIVE_URL: "postgres://localhost/shop" }); // { kind: "postgres", ... }
 * @throws ConfigError (`E_CONFIG_INVALID`) for any other value
 */
export function liveTransportSetting(env: Env = process.env): LiveTransportSetting {
  const url = envValue("LIVE_URL", env);
  if (!url || url === "memory") return { kind: "memory" };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url };
  if (/^rediss?:\/\//.test(url)) return { kind: "redis", url };
  throw new ConfigError(
    `LIVE_URL must be unset, memory, a postgres:// or a redis:// URL, got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, "//***@"))}`,
  );
}

/**
 * `LIVE_MAX_CONNECTIONS`: the live event streams one process serves at most (default 10 000).
 * @example liveMaxConnections({ LIVE_MAX_CONNECTIONS: "500" }); // 500
 * @throws ConfigError (`E_CONFIG_INVALID`) when it is not a whole number from 1 to 1 000 000
 */
export function liveMaxConnections(env: Env = process.env): number {
  return integerSetting("LIVE_MAX_CONNECTIONS", 10_000, { min: 1, max: 1_000_000 }, env);
}

/**
 * `SMTP_URL`: where mail is sent (undefined: printed in development, captured in tests).
 * @param env - the variables to read (default `process.env`)
 * @returns the URL, or undefined when unset
 * @example smtpUrlSetting(); // "smtp://user:pass@mail.example.com:587"
 */
export function smtpUrlSetting(env: Env = process.env): string | undefined {
  return envValue("SMTP_URL", env);
}

/**
 * `MAIL_FROM`: the sender of mail that names none (default `no-reply@localhost`).
 * @param env - the variables to read (default `process.env`)
 * @returns the address
 * @example mailFromSetting(); // "no-reply@localhost"
 */
export function mailFromSetting(env: Env = process.env): string {
  return envValue("MAIL_FROM", env) ?? "no-reply@localhost";
}

/**
 * `REDIS_URL`: the Redis that rate limits share across processes (undefined: in memory).
 * @param env - the variables to read (default `process.env`)
 * @returns the URL, or undefined when unset
 * @example redisUrlSetting(); // "redis://127.0.0.1:6379"
 */
export function redisUrlSetting(env: Env = process.env): string | undefined {
  return envValue("REDIS_URL", env);
}

/**
 * `JOBS_URL`: where background jobs are kept (undefined: the app's database; `redis://`: BullMQ).
 * @param env - the variables to read (default `process.env`)
 * @returns the URL, or undefined when unset
 * @example jobsUrlSetting(); // "redis://127.0.0.1:6379/1"
 */
export function jobsUrlSetting(env: Env = process.env): string | undefined {
  return envValue("JOBS_URL", env);
}

/**
 * `STORAGE_URL`: where uploaded files are stored (undefined: the app's `storage/` folder, or
 * `tmp/test-storage/` in the test environment).
 * @param env - the variables to read (default `process.env`)
 * @returns the URL, or undefined when unset
 * @example storageUrlSetting(); // "s3://bucket?region=eu-west-1"
 */
export function storageUrlSetting(env: Env = process.env): string | undefined {
  return envValue("STORAGE_URL", env);
}

/**
 * `HOST` as written (a URL included), for what prints the app's address rather than listens.
 * @param env - the variables to read (default `process.env`)
 * @returns the value, or undefined when unset
 * @example hostSetting({ HOST: "https://shop.example" }); // "https://shop.example"
 */
export function hostSetting(env: Env = process.env): string | undefined {
  return envValue("HOST", env);
}

/**
 * `PORT` as written, for what prints the app's address rather than listens ({@link listenPort}
 * checks it).
 * @param env - the variables to read (default `process.env`)
 * @returns the value, or undefined when unset
 * @example portSetting({ PORT: "8080" }); // "8080"
 */
export function portSetting(env: Env = process.env): string | undefined {
  return envValue("PORT", env);
}

/**
 * `APP_URL` as written (http/app-url.ts parses and checks it).
 * @param env - the variables to read (default `process.env`)
 * @returns the value, or undefined when unset
 * @example appUrlSetting({ APP_URL: "https://shop.example" }); // "https://shop.example"
 */
export function appUrlSetting(env: Env = process.env): string | undefined {
  return envValue("APP_URL", env);
}

/**
 * `DATABASE_URL` as given, without a fallback ({@link databaseUrlSetting} adds it).
 * @param env - the variables to read (default `process.env`)
 * @returns the URL, or undefined when unset
 * @example givenDatabaseUrl({ DATABASE_URL: "postgres://127.0.0.1/shop" }); // "postgres://127.0.0.1/shop"
 */
export function givenDatabaseUrl(env: Env = process.env): string | undefined {
  return envValue("DATABASE_URL", env);
}

/**
 * `TEST_DATABASE_URL`: the test environment's database, when `DATABASE_URL` is not exported.
 * @param env - the variables to read (default `process.env`)
 * @returns the URL, or undefined when unset
 * @example testDatabaseUrlSetting({ TEST_DATABASE_URL: "postgres://127.0.0.1/t" }); // "postgres://127.0.0.1/t"
 */
export function testDatabaseUrlSetting(env: Env = process.env): string | undefined {
  return envValue("TEST_DATABASE_URL", env);
}

/**
 * `SESSION_SECRET`: the secrets sessions are sealed with, comma-separated (the first seals).
 * @param env - the variables to read (default `process.env`)
 * @returns the secrets as written, trimmed, empty ones dropped; `[]` when unset
 * @example sessionSecretsSetting({ SESSION_SECRET: "new, old" }); // ["new", "old"]
 */
export function sessionSecretsSetting(env: Env = process.env): string[] {
  return splitList(envValue("SESSION_SECRET", env), ",");
}

/**
 * `ALLOWED_HOSTS`: the host names `hostAuthorization()` accepts, comma-separated.
 * @param env - the variables to read (default `process.env`)
 * @returns the names as written, trimmed, empty ones dropped; `[]` when unset
 * @example allowedHostsSetting({ ALLOWED_HOSTS: "shop.example, .shop.example" }); // ["shop.example", ".shop.example"]
 */
export function allowedHostsSetting(env: Env = process.env): string[] {
  return splitList(envValue("ALLOWED_HOSTS", env), ",");
}

/**
 * `TRUSTED_PROXIES` as written (http/client-address.ts parses it, once per value). Read per
 * request, so that a test or a console may change it: one environment read, no parsing.
 * @param env - the variables to read (default `process.env`)
 * @returns the value, or undefined when unset
 * @example trustedProxiesSetting({ TRUSTED_PROXIES: "10.0.0.0/8" }); // "10.0.0.0/8"
 */
export function trustedProxiesSetting(env: Env = process.env): string | undefined {
  return envValue("TRUSTED_PROXIES", env);
}

/**
 * `TRUSTED_PROXY_HEADER` as written (http/forwarding-headers.ts checks it).
 * @param env - the variables to read (default `process.env`)
 * @returns the value, or undefined when unset
 * @example trustedProxyHeaderSetting({ TRUSTED_PROXY_HEADER: "forwarded" }); // "forwarded"
 */
export function trustedProxyHeaderSetting(env: Env = process.env): string | undefined {
  return envValue("TRUSTED_PROXY_HEADER", env);
}

/**
 * `NODE_OPTIONS` as written: Node's flags, which `wisent start --workers` looks into for a chosen
 * young-generation size.
 * @param env - the variables to read (default `process.env`)
 * @returns the value, or undefined when unset or empty
 * @example nodeOptionsSetting({ NODE_OPTIONS: "--max-semi-space-size=16" }); // "--max-semi-space-size=16"
 */
export function nodeOptionsSetting(env: Env = process.env): string | undefined {
  return envValue("NODE_OPTIONS", env);
}

/**
 * `ASSETS_MAX_AGE`: seconds browsers may cache served files (default a year; anything that is not
 * a positive number counts as unset).
 * @param env - the variables to read (default `process.env`)
 * @returns the seconds
 * @example assetsMaxAgeSetting({ ASSETS_MAX_AGE: "600" }); // 600
 */
export function assetsMaxAgeSetting(env: Env = process.env): number {
  return Number(envValue("ASSETS_MAX_AGE", env)) || 31_536_000;
}

/**
 * `UV_THREADPOOL_SIZE`: the threads of Node's pool (4 unless set; anything that is not a positive
 * number counts as unset).
 * @param env - the variables to read (default `process.env`)
 * @returns the thread count
 * @example threadPoolSizeSetting({ UV_THREADPOOL_SIZE: "16" }); // 16
 */
export function threadPoolSizeSetting(env: Env = process.env): number {
  return Number(envValue("UV_THREADPOOL_SIZE", env)) || 4;
}

/**
 * The region of an `s3://` storage URL that names none: `AWS_REGION`, else `AWS_DEFAULT_REGION`,
 * else `us-east-1`.
 * @param env - the variables to read (default `process.env`)
 * @returns the region
 * @example awsRegionSetting({ AWS_DEFAULT_REGION: "eu-west-1" }); // "eu-west-1"
 */
export function awsRegionSetting(env: Env = process.env): string {
  return envValue("AWS_REGION", env) ?? envValue("AWS_DEFAULT_REGION", env) ?? "us-east-1";
}

/**
 * Colour asked for by the environment, by the usual conventions (https://no-color.org,
 * `FORCE_COLOR`, `TERM=dumb`): true or false when it says, undefined when the terminal decides.
 * @param env - the variables to read
 * @returns the environment's choice, if it makes one
 * @example colorSetting({ NO_COLOR: "1" }); // false
 */
export function colorSetting(env: Env): boolean | undefined {
  const force = envValue("FORCE_COLOR", env);
  if (force !== undefined) return force !== "0" && force !== "false";
  if (envValue("NO_COLOR", env) !== undefined) return false;
  if (envValue("TERM", env) === "dumb") return false;
  return undefined;
}

/**
 * Whether `FORCE_COLOR` is set (to anything): a process that colours its children's output
 * leaves it to the user's when it is.
 * @param env - the variables to read
 * @returns true when set
 * @example forceColorGiven({ FORCE_COLOR: "0" }); // true
 */
export function forceColorGiven(env: Env): boolean {
  return envValue("FORCE_COLOR", env) !== undefined;
}

/**
 * The dev server's URL when this process runs behind `wisent dev` (`WISENT_DEV_SUPERVISOR=1`,
 * `WISENT_DEV_URL`), else undefined.
 * @param env - the variables to read (default `process.env`)
 * @returns the URL to print instead of this process's own
 * @example devServerUrlSetting({ WISENT_DEV_SUPERVISOR: "1", WISENT_DEV_URL: "http://127.0.0.1:3000" });
 */
export function devServerUrlSetting(env: Env = process.env): string | undefined {
  return devSupervisedSetting(env) ? envValue("WISENT_DEV_URL", env) : undefined;
}

/**
 * Whether `wisent dev` runs this process (`WISENT_DEV_SUPERVISOR=1`).
 * @param env - the variables to read (default `process.env`)
 * @returns true under `wisent dev`
 * @example devSupervisedSetting({ WISENT_DEV_SUPERVISOR: "1" }); // true
 */
export function devSupervisedSetting(env: Env = process.env): boolean {
  return envValue("WISENT_DEV_SUPERVISOR", env) === "1";
}

/**
 * Whether the app's server performs its background jobs too (`WISENT_JOBS=1`, set by `wisent
 * dev` and `wisent start --jobs`).
 * @param env - the variables to read (default `process.env`)
 * @returns true when it does
 * @example jobsInProcessSetting({ WISENT_JOBS: "1" }); // true
 */
export function jobsInProcessSetting(env: Env = process.env): boolean {
  return envValue("WISENT_JOBS", env) === "1";
}

/**
 * `WISENT_NOTICES_SHOWN`: the keys of the start-up notices this process tree has printed.
 * @param env - the variables to read (default `process.env`)
 * @returns the keys, `[]` when unset
 * @example noticesShownSetting({ WISENT_NOTICES_SHOWN: "a1,b2" }); // ["a1", "b2"]
 */
export function noticesShownSetting(env: Env = process.env): string[] {
  return splitList(envValue("WISENT_NOTICES_SHOWN", env), ",");
}

/**
 * Records the start-up notices printed (in `env`, default `process.env`, which child processes
 * and workers inherit).
 * @example recordNoticesShown(["a1", "b2"]);
 */
export function recordNoticesShown(
  keys: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (keys.length > 0) env.WISENT_NOTICES_SHOWN = keys.join(",");
}

function splitList(value: string | undefined, separator: string): string[] {
  return (value ?? "")
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * `POOL_SIZE`: connections each process keeps to PostgreSQL or MySQL (default 10).
 * @param env - the variables to read (default `process.env`)
 * @returns the size
 * @throws ConfigError (`E_CONFIG_INVALID`) when it is not a whole number from 1 to 1000
 * @example poolSizeSetting({ POOL_SIZE: "20" }); // 20
 */
export function poolSizeSetting(env: Env = process.env): number {
  return integerSetting("POOL_SIZE", 10, { min: 1, max: 1000 }, env);
}

const ROWS = { min: 0, max: Number.MAX_SAFE_INTEGER, unit: "rows" };

/**
 * `PAGINATION_COUNT_LIMIT`: lists up to this many rows are counted exactly (default 10 000).
 * @param env - the variables to read (default `process.env`)
 * @returns the rows
 * @throws ConfigError (`E_CONFIG_INVALID`) when it is not a whole number of rows
 * @example paginationCountLimitSetting({ PAGINATION_COUNT_LIMIT: "50000" }); // 50000
 */
export function paginationCountLimitSetting(env: Env = process.env): number {
  return integerSetting("PAGINATION_COUNT_LIMIT", 10_000, ROWS, env);
}

/**
 * `PAGINATION_MAX_OFFSET`: the deepest `page` offset served on a long list (default 10 000).
 * @param env - the variables to read (default `process.env`)
 * @returns the rows
 * @throws ConfigError (`E_CONFIG_INVALID`) when it is not a whole number of rows
 * @example paginationMaxOffsetSetting({ PAGINATION_MAX_OFFSET: "20000" }); // 20000
 */
export function paginationMaxOffsetSetting(env: Env = process.env): number {
  return integerSetting("PAGINATION_MAX_OFFSET", 10_000, ROWS, env);
}
