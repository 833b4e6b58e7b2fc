/**
 * Which database an app uses in an environment, and where its `.env` file fits in: one rule for
 * the CLI (`migrate`, `db`, `dev`, `start`, `routes`), the server it starts, and Vitest.
 * @module
 */
import { basename, dirname, extname } from "node:path";
import { readDotEnv } from "../config/dot-env.js";
import {
  currentEnv,
  defaultDatabaseUrl,
  givenDatabaseUrl,
  isProductionLike,
  testDatabaseUrlSetting,
} from "../config/settings.js";

type Vars = Readonly<Record<string, string | undefined>>;

/** `GO_ENV`, else `NODE_ENV`, else `development` (the rule of `currentEnv`). */
export const environmentOf = (vars: Vars): string => currentEnv(vars);

export { readDotEnv };

/**
 * The test database that goes with a development database URL: the same server, the name with
 * `_test` (Rails' `blog_development` becomes `blog_test`), or for SQLite the file `test.sqlite`
 * beside `development.sqlite` (else `<name>_test.sqlite`). A name that is already a test
 * database's stays.
 *
 * @example
 * testDatabaseUrl("postgres://app@db:5432/blog");             // "postgres://app@db:5432/blog_test"
 * testDatabaseUrl("postgres://app@db:5432/blog_development"); // "postgres://app@db:5432/blog_test"
 * testDatabaseUrl("sqlite:db/development.sqlite");            // "sqlite:db/test.sqlite"
 */
export function testDatabaseUrl(url: string): string {
  const testName = (name: string): string => {
    if (name === "test" || name.endsWith("_test")) return name;
    const base = name.replace(/_(development|dev)$/, "");
    return base === "development" ? "test" : `${base}_test`;
  };
  const sqlite = /^(sqlite3?:(?:\/\/)?)(.*)$/i.exec(url);
  if (sqlite) {
    const [, scheme, path] = sqlite as unknown as [string, string, string];
    if (path === ":memory:" || path === "") return url;
    const ext = extname(path);
    const file = testName(basename(path, ext)) + ext;
    const dir = dirname(path);
    return `${scheme}${dir === "." && !path.startsWith("./") ? "" : `${dir}/`}${file}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // parseDatabaseUrl reports the bad URL where it is opened
  }
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (name === "") return url;
  parsed.pathname = `/${encodeURIComponent(testName(name))}`;
  return parsed.href;
}

/**
 * The database URL of an app in an environment:
 *
 * | environment | `TEST_DATABASE_URL` | `DATABASE_URL` exported | `DATABASE_URL` in `.env` | URL                                  |
 * |-------------|---------------------|-------------------------|--------------------------|--------------------------------------|
 * | any         |                     | set                     |                          | the exported one, as is              |
 * | test        | set                 |                         |                          | `TEST_DATABASE_URL`                  |
 * | test        |                     |                         | set                      | its test database (`testDatabaseUrl`)|
 * | other       |                     |                         | set                      | the `.env` one                       |
 * | any         |                     |                         |                          | `sqlite:db/<env>.sqlite`             |
 *
 * `.env` holds the development settings, so in the test environment its database becomes its
 * `_test` twin; a URL exported in the real environment (CI, a deploy) is used as given. The last
 * row is the fallback of `fallbackDatabaseUrl` (config/settings.ts), which {@link appEnvironment}
 * leaves to whatever opens the database, since it refuses it in some environments.
 *
 * @example
 * appDatabaseUrl({ GO_ENV: "test" }, { DATABASE_URL: "postgres://127.0.0.1/blog" }); // ".../blog_test"
 */
export function appDatabaseUrl(exported: Vars, dotEnv: Vars = {}): string {
  const env = environmentOf({ ...dotEnv, ...definedOnly(exported) });
  const exportedUrl = givenDatabaseUrl(exported);
  if (exportedUrl) return exportedUrl;
  const dotEnvUrl = givenDatabaseUrl(dotEnv);
  if (env === "test") {
    const test = testDatabaseUrlSetting(exported) || testDatabaseUrlSetting(dotEnv);
    if (test) return test;
    return dotEnvUrl ? testDatabaseUrl(dotEnvUrl) : defaultDatabaseUrl(env);
  }
  return dotEnvUrl || defaultDatabaseUrl(env);
}

function definedOnly(vars: Vars): Vars {
  return Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined && v !== ""));
}

/**
 * The environment variables a process of the app runs with: the exported ones, those of `.env`
 * not already set, and `DATABASE_URL` resolved by {@link appDatabaseUrl} for the environment;
 * in a production-like environment without a URL it stays unset, so that the database's
 * opener applies `fallbackDatabaseUrl` (config/settings.ts), which refuses SQLite for an app
 * that recorded another engine, naming `DATABASE_URL`.
 *
 * @example
 * const env = appEnvironment("/code/blog", { ...process.env, GO_ENV: "test" });
 */
export function appEnvironment(cwd: string, exported: Vars): Record<string, string | undefined> {
  const dotEnv = readDotEnv(cwd);
  const env: Record<string, string | undefined> = { ...exported };
  for (const [key, value] of Object.entries(dotEnv)) {
    if (env[key] === undefined) env[key] = value;
  }
  const given = givenDatabaseUrl(exported) || givenDatabaseUrl(dotEnv);
  const refusable = !given && isProductionLike(environmentOf(env));
  env.DATABASE_URL = refusable ? undefined : appDatabaseUrl(exported, dotEnv);
  return env;
}
