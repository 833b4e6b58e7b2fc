/**
 * What the app-facing commands (routes, migrate, dev, start) share: checking that the current
 * directory is an app, its environment (with `.env`), and loading its TypeScript through tsx.
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isWisentError, WisentError } from "../base/wisent-error.js";
import { type Env, exportEnvironment } from "../config/env.js";
import { currentEnv, databaseUrlSetting, listenHost, listenPort } from "../config/settings.js";
import { appEnvironment } from "../data/app-database-url.js";
import { UsageError } from "./args.js";
import type { CliIO } from "./io.js";

/** Each command run's app environment, read once (`.env` is read from disk here and only here). */
const loaded = new WeakMap<object, Record<string, string | undefined>>();

/**
 * The environment an app command runs with: the process's variables, plus those of the app's
 * `.env` file that are not already set (as Rails/dotenv do: the real environment wins), and
 * `DATABASE_URL` resolved for the environment (`appDatabaseUrl`: in test, `.env`'s database
 * becomes its `_test` twin), so the server it starts opens the same database.
 * @example const env = appEnv(io); // env.DATABASE_URL from .env unless exported
 */
export function appEnv(io: Pick<CliIO, "cwd" | "env">): Record<string, string | undefined> {
  let env = loaded.get(io);
  if (!env) {
    env = appEnvironment(io.cwd, io.env);
    loaded.set(io, env);
  }
  return { ...env };
}

/**
 * Puts the app's environment ({@link appEnv}) into this process's, for the app code a command
 * imports (src/db.ts reads `DATABASE_URL`): the variables not set already, or all of them with
 * `override` (seeds run in the environment `wisent db` was asked for).
 * @example exportAppEnv(io); await import(appFile);
 */
export function exportAppEnv(
  io: Pick<CliIO, "cwd" | "env">,
  options: { env?: Env; override?: boolean } = {},
): void {
  exportEnvironment(options.env ?? appEnv(io), options);
}

/** The environment's name in `env` (`GO_ENV`, else `NODE_ENV`, else `development`). */
export const envName = (env: Env): string => currentEnv(env);

/** The port the app listens on (`PORT`, else 3000, as `app.listen()` reads it); bad is a usage error. */
export function appPort(env: Env): number {
  try {
    return listenPort(env);
  } catch (error) {
    if (isWisentError(error, "E_CONFIG_INVALID")) throw new UsageError(error.message);
    throw error;
  }
}

/** The interface the app listens on: `HOST` unless it is a URL, else 127.0.0.1. */
export const appHost = (env: Env): string => listenHost(env);

/**
 * `DATABASE_URL`, else the per-environment SQLite file, unless the app in `cwd` recorded another
 * engine and the environment is production-like: then a ConfigError naming `DATABASE_URL`.
 */
export const databaseUrl = (env: Env, cwd?: string): string => databaseUrlSetting(env, cwd);

/**
 * Throws unless `cwd` looks like a Wisent app (has `file`, e.g. `src/app.ts`), naming what is
 * missing, so `wisent routes` in the wrong folder says so instead of a stack trace.
 */
export function requireAppFile(io: Pick<CliIO, "cwd">, file: string): string {
  const path = join(io.cwd, file);
  if (!existsSync(path)) {
    throw new WisentError(
      "E_NOT_AN_APP",
      `no ${file} in ${io.cwd}: run this command in the folder of a Wisent app`,
    );
  }
  return path;
}

let registered = false;

/**
 * Lets `import()` load TypeScript (the app's `src/app.ts`, its migrations) in this process,
 * through tsx's ESM loader; idempotent.
 */
export async function registerTypeScript(): Promise<void> {
  if (registered) return;
  // The framework (and Kysely, zod, Hono, the drivers it loads) first, natively: once tsx's loader
  // is registered every module goes through its hooks, which doubles the import time (the app's
  // own `import ... from "wisent"` then finds these modules loaded).
  // `wisent` as the app resolves it (the package's bundle), so that the app finds it loaded.
  await import("wisent");
  const { register } = await import("tsx/esm/api");
  register();
  registered = true;
}

/** The path of tsx's command-line entry, to run the app's server in a child process. */
export function tsxCli(): string {
  return new URL(import.meta.resolve("tsx/cli")).pathname;
}
