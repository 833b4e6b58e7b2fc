/**
 * Creating and dropping the database a URL names (`wisent db create | drop`): a SQLite file, or a
 * PostgreSQL/MySQL database made through the server's maintenance database.
 * @module
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { type Kysely, sql } from "kysely";
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

async function serverHas(admin: Database, name: string, on: Kysely<unknown> = admin.kysely) {
  const rows =
    admin.dialect === "postgres"
      ? await sql`select 1 from pg_database where datname = ${name}`.execute(on)
      : await sql`select 1 from information_schema.schemata where schema_name = ${name}`.execute(
          on,
        );
  return rows.rows.length > 0;
}

/** How long a MySQL/MariaDB server lets a second creator wait for the first, in seconds. */
const CREATE_LOCK_SECONDS = 600;

/**
 * Runs `work` on one connection of `admin` holding the server's lock for creating `name`
 * (PostgreSQL's advisory lock, MySQL's GET_LOCK: both end with the session, so a creator that
 * dies releases it), so that replicas starting together create the database once: two
 * concurrent CREATE DATABASE fail ("source database template1 is being accessed by other
 * users", or a duplicate name).
 */
async function whileCreating<T>(
  admin: Database,
  name: string,
  work: (on: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  const key = `wisent_create_${createHash("sha256").update(name).digest("hex").slice(0, 40)}`;
  return admin.kysely.connection().execute(async (on) => {
    if (admin.dialect === "postgres") {
      await sql`select pg_advisory_lock(hashtext(${key}))`.execute(on);
    } else {
      const got = await sql<{
        got: number | null;
      }>`select get_lock(${key}, ${CREATE_LOCK_SECONDS}) as got`.execute(on);
      if (Number(got.rows[0]?.got) !== 1) {
        throw new WisentError(
          "E_DATABASE_UNAVAILABLE",
          `another process has been creating the database ${name} for ${CREATE_LOCK_SECONDS} seconds: wait for it, or stop it`,
        );
      }
    }
    try {
      return await work(on);
    } finally {
      if (admin.dialect === "postgres") {
        await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(on);
      } else await sql`select release_lock(${key})`.execute(on);
    }
  });
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
 * Creates the database of `url` unless it exists; resolves with what it did. On a server it
 * holds the server's lock for that name meanwhile, so processes creating it together (replicas
 * starting, `wisent db prepare`) create it once and the others find it there.
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
  return withAdmin(url, target.dialect, (admin, name) =>
    whileCreating(admin, name, async (on) => {
      if (await serverHas(admin, name, on)) return "exists";
      try {
        await sql`create database ${sql.id(name)}`.execute(on);
      } catch (cause) {
        const why = cause instanceof Error ? cause.message : String(cause);
        throw new WisentError(
          "E_DATABASE_UNAVAILABLE",
          `cannot create database ${maskDatabaseUrl(url)}: ${why}`,
          { cause },
        );
      }
      return "created" as const;
    }),
  );
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
