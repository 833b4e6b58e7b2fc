import { resolve } from "node:path";
import { WisentError } from "../base/wisent-error.js";

/** The database engines Wisent speaks to. MariaDB counts as `mysql`. */
export type DialectName = "sqlite" | "postgres" | "mysql";

/** A `DATABASE_URL` taken apart: which engine, and how to reach it. */
export type DatabaseTarget =
  | { dialect: "sqlite"; url: string; file: string }
  | { dialect: "postgres" | "mysql"; url: string };

/**
 * Replaces the password of a database URL with `****`, for messages and logs.
 *
 * @example
 * maskDatabaseUrl("postgres://app:s3cret@db/app"); // "postgres://app:****@db/app"
 */
export function maskDatabaseUrl(url: string): string {
  // A regex rather than `new URL`: it must also mask URLs that do not parse.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:****@");
}

export { defaultDatabaseUrl } from "../config/settings.js";

/**
 * Reads a `DATABASE_URL`: `sqlite:<file>`, `sqlite::memory:`, `postgres://...` (or `postgresql://`),
 * `mysql://...` (or `mariadb://`). Relative SQLite files resolve against `cwd`.
 * Throws an Error naming the (masked) URL and what is wrong with it.
 *
 * @example
 * parseDatabaseUrl("sqlite:db/test.sqlite"); // { dialect: "sqlite", file: "/app/db/test.sqlite", ... }
 */
export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseTarget {
  const masked = maskDatabaseUrl(url);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  const fail = (why: string): never => {
    throw new WisentError("E_DATABASE_URL", `invalid DATABASE_URL "${masked}": ${why}`);
  };
  if (!scheme) {
    return fail("expected sqlite:<file>, postgres://... or mysql://...");
  }
  if (scheme === "sqlite" || scheme === "sqlite3") {
    const rest = url.slice(scheme.length + 1);
    // `sqlite:///abs/file` and `sqlite://rel/file` are common spellings of the same thing.
    const path = rest.startsWith("///") ? rest.slice(2) : rest.replace(/^\/\//, "");
    if (path === "")
      return fail("the SQLite file name is missing (e.g. sqlite:db/development.sqlite)");
    if (path === ":memory:") return { dialect: "sqlite", url, file: ":memory:" };
    return { dialect: "sqlite", url, file: resolve(cwd, path) };
  }
  const dialect =
    scheme === "postgres" || scheme === "postgresql"
      ? "postgres"
      : scheme === "mysql" || scheme === "mariadb"
        ? "mysql"
        : undefined;
  if (!dialect) {
    return fail(`unknown scheme "${scheme}:" (use sqlite:, postgres:// or mysql://)`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail("it is not a valid URL");
  }
  if (!parsed.hostname) return fail("the host name is missing");
  if (parsed.pathname.replace(/^\//, "") === "") return fail("the database name is missing");
  return { dialect, url };
}
