/**
 * Creating and dropping the database a URL names (`wisent db create | drop`): a SQLite file, or a
 * PostgreSQL/MySQL database made through the server's maintenance database.
 * @module
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { sql } from "kysely";
import { WisentError } from "../base/wisent-error.js";
import { type Database, openDatabase } from "./database.js";
import { maskDatabaseUrl, parseDatabaseUrl } from "./database-url.js";

/** The database a server URL names, and the URL of the database to administer it from. */
function serverTarget(url: string, dialect: "postgres" | "mysql") {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  // Every PostgreSQL server has `postgres`; every MySQL/MariaDB user can open information_schema.
  parsed.pathname = dialect === "postgres" ? "/postgres" : "/information_schema";
  return { name, adminUrl: parsed.href };
}

async function withAdmin<T>(
  url: string,
  dialect: "postgres" | "mysql",
  work: (admin: Database, name: string) => Promise<T>,
): Promise<T> {
  const { name, adminUrl } = serverTarget(url, dialect);
  const admin = await openDatabase(adminUrl, { poolSize: 1 });
  try {
    return await work(admin, name);
  } finally {
    await admin.close();
  }
}

async function serverHas(admin: Database, name: string): Promise<boolean> {
  const rows =
    admin.dialect === "postgres"
      ? await sql`select 1 from pg_database where datname = ${name}`.execute(admin.kysely)
      : await sql`select 1 from information_schema.schemata where schema_name = ${name}`.execute(
          admin.kysely,
        );
  return rows.rows.length > 0;
}

/**
 * Whether the database of `url` exists (the SQLite file, or the database on its server).
 *
 * @example
 * await databaseExists("postgres://127.0.0.1/blog_test"); // false
 */
export async function databaseExists(url: string, cwd = process.cwd()): Promise<boolean> {
  const target = parseDatabaseUrl(url, cwd);
  if (target.dialect === "sqlite") return target.file === ":memory:" || existsSync(target.file);
  return withAdmin(url, target.dialect, serverHas);
}

/**
 * Creates the database of `url` unless it exists; resolves with what it did.
 *
 * @example
 * await createDatabase("sqlite:db/development.sqlite"); // "created"
 */
export async function createDatabase(
  url: string,
  cwd = process.cwd(),
): Promise<"created" | "exists"> {
  const target = parseDatabaseUrl(url, cwd);
  if (target.dialect === "sqlite") {
    if (target.file === ":memory:" || existsSync(target.file)) return "exists";
    mkdirSync(dirname(target.file), { recursive: true });
    const db = await openDatabase(url, { cwd });
    await db.close();
    return "created";
  }
  return withAdmin(url, target.dialect, async (admin, name) => {
    if (await serverHas(admin, name)) return "exists";
    try {
      await sql`create database ${sql.id(name)}`.execute(admin.kysely);
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new WisentError(
        "E_DATABASE_UNAVAILABLE",
        `cannot create database ${maskDatabaseUrl(url)}: ${why}`,
        { cause },
      );
    }
    return "created";
  });
}

/**
 * Drops the database of `url` (PostgreSQL: closing other sessions on it first); resolves with
 * what it did.
 *
 * @example
 * await dropDatabase("postgres://127.0.0.1/blog_test"); // "dropped"
 */
export async function dropDatabase(
  url: string,
  cwd = process.cwd(),
): Promise<"dropped" | "missing"> {
  const target = parseDatabaseUrl(url, cwd);
  if (target.dialect === "sqlite") {
    if (target.file === ":memory:" || !existsSync(target.file)) return "missing";
    for (const suffix of ["", "-wal", "-shm", "-journal"])
      rmSync(target.file + suffix, { force: true });
    return "dropped";
  }
  return withAdmin(url, target.dialect, async (admin, name) => {
    if (!(await serverHas(admin, name))) return "missing";
    try {
      if (admin.dialect === "postgres") {
        await sql`drop database ${sql.id(name)} with (force)`.execute(admin.kysely);
      } else {
        await sql`drop database ${sql.id(name)}`.execute(admin.kysely);
      }
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new WisentError(
        "E_DATABASE_UNAVAILABLE",
        `cannot drop database ${maskDatabaseUrl(url)}: ${why}`,
        { cause },
      );
    }
    return "dropped";
  });
}
