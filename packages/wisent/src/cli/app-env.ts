/**
 * What the app-facing commands (routes, migrate, dev, start) share: checking that the current
 * directory is an app, its environment (with `.env`), and loading its TypeScript through tsx.
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { appEnvironment } from "../data/app-database-url.js";
import { defaultDatabaseUrl } from "../data/database-url.js";
import { UsageError } from "./args.js";
import type { CliIO } from "./io.js";

/**
 * The environment an app command runs with: the process's variables, plus those of the app's
 * `.env` file that are not already set (as Rails/dotenv do: the real environment wins), and
 * `DATABASE_URL` resolved for the environment (`appDatabaseUrl`: in test, `.env`'s database
 * becomes its `_test` twin), so the server it starts opens the same database.
 * @example const env = appEnv(io); // env.DATABASE_URL from .env unless exported
 */
export function appEnv(io: Pick<CliIO, "cwd" | "env">): Record<string, string | undefined> {
  return appEnvironment(io.cwd, io.env);
}

/** `GO_ENV`, else `NODE_ENV`, else `development`: the same rule as `currentEnv()`, for `env`. */
export function envName(env: Readonly<Record<string, string | undefined>>): string {
  return env.GO_ENV || env.NODE_ENV || "development";
}

/** The port the app listens on: `PORT`, else 3000 (as `app.listen()` reads it). */
export function appPort(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.PORT?.trim();
  if (!raw) return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}

/** The interface the app listens on: `HOST` unless it is a URL, else 127.0.0.1. */
export function appHost(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env.HOST?.trim();
  return raw && !/^https?:\/\//.test(raw) ? raw : "127.0.0.1";
}

/** `DATABASE_URL`, else the per-environment SQLite file. */
export function databaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  return env.DATABASE_URL || defaultDatabaseUrl(envName(env));
}

/**
 * Throws unless `cwd` looks like a Wisent app (has `file`, e.g. `src/app.ts`), naming what is
 * missing, so `wisent routes` in the wrong folder says so instead of a stack trace.
 */
export function requireAppFile(io: Pick<CliIO, "cwd">, file: string): string {
  const path = join(io.cwd, file);
  if (!existsSync(path)) {
    throw new Error(`no ${file} in ${io.cwd}: run this command in the folder of a Wisent app`);
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
