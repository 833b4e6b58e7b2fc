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
