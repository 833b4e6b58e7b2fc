import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { migrateUp, openDatabase } from "wisent/db";

/** The example app's migrations (examples/shop, made by the CLI; TypeScript). */
export const MIGRATIONS = fileURLToPath(
  new URL("../../../examples/shop/migrations/", import.meta.url),
);

/** The shared PostgreSQL server; throwaway databases are made on it and dropped after. */
export const SHARED_POSTGRES =
  process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** The shared MySQL/MariaDB server, used the same way. */
export const SHARED_MYSQL = process.env.WISENT_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";

/** A database for one test file: its URL and how to remove it. */
export interface TestDatabase {
  url: string;
  dialect: "sqlite" | "postgres" | "mysql";
  /** Rows of a table, read with a fresh connection. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

async function rowsOf(url: string, table: string): Promise<Record<string, unknown>[]> {
  const db = await openDatabase(url, { poolSize: 1 });
  try {
    return await db.kysely.selectFrom(table).selectAll().orderBy("id").execute();
  } finally {
    await db.close();
  }
}

/** Runs the shop's migrations (what `wisent migrate` does). */
export async function migrate(url: string, folder = MIGRATIONS): Promise<string[]> {
  const db = await openDatabase(url, { poolSize: 1 });
  try {
    return await migrateUp(db, folder);
  } finally {
    await db.close();
  }
}

/**
 * A SQLite file in a temp folder, migrated with `folder`'s migrations (the shop's by default)
 * unless `migrated` is false.
 */
export async function sqliteDatabase(migrated = true, folder = MIGRATIONS): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "wisent-reliability-"));
  const url = `sqlite:${join(dir, "shop.sqlite")}`;
  if (migrated) await migrate(url, folder);
  return {
    url,
    dialect: "sqlite",
    rows: (table) => rowsOf(url, table),
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether the shared PostgreSQL answers; prints why not when it does not. */
export function sharedPostgresAvailable(): Promise<boolean> {
  return answers(SHARED_POSTGRES, "PostgreSQL");
}

/** Whether the shared MySQL/MariaDB answers; prints why not when it does not. */
export function sharedMysqlAvailable(): Promise<boolean> {
  return answers(SHARED_MYSQL, "MySQL");
}

async function answers(url: string, name: string): Promise<boolean> {
  try {
    const db = await openDatabase(url, { poolSize: 1 });
    await db.close();
    return true;
  } catch (error) {
    console.warn(`SKIPPING ${name} reliability tests: ${(error as Error).message}`);
    return false;
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}

/** A throwaway database `wisent_rel_<random>` on a PostgreSQL server, migrated unless told not. */
export function postgresDatabase(
  adminUrl = SHARED_POSTGRES,
  migrated = true,
): Promise<TestDatabase> {
  return serverDatabase("postgres", adminUrl, migrated);
}

/** A throwaway database `wisent_rel_<random>` on a MySQL/MariaDB server, migrated unless told not. */
export function mysqlDatabase(adminUrl = SHARED_MYSQL, migrated = true): Promise<TestDatabase> {
  return serverDatabase("mysql", adminUrl, migrated);
}

async function serverDatabase(
  dialect: "postgres" | "mysql",
  adminUrl: string,
  migrated: boolean,
): Promise<TestDatabase> {
  const name = `wisent_rel_${randomBytes(5).toString("hex")}`;
  const admin = await openDatabase(adminUrl, { poolSize: 1 });
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.kysely);
  } finally {
    await admin.close();
  }
  const url = withDatabase(adminUrl, name);
  if (migrated) await migrate(url);
  return {
    url,
    dialect,
    rows: (table) => rowsOf(url, table),
    async drop() {
      const db = await openDatabase(adminUrl, { poolSize: 1 });
      try {
        const drop =
          dialect === "postgres"
            ? sql`drop database if exists ${sql.id(name)} with (force)`
            : sql`drop database if exists ${sql.id(name)}`;
        await drop.execute(db.kysely);
      } finally {
        await db.close();
      }
    },
  };
}

/** Where initdb and pg_ctl live, or undefined with the reason printed. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest || !existsSync("/usr/sbin/runuser") || process.getuid?.() !== 0) {
    console.warn(
      "SKIPPING the database-outage test: it needs initdb/pg_ctl under /usr/lib/postgresql/*/bin, runuser and root (to run them as the postgres user)",
    );
    return undefined;
  }
  return join(root, newest, "bin");
}

/**
 * A private PostgreSQL server (initdb into a temp folder, pg_ctl on a free port) that a test may
 * stop and start without disturbing the machine's shared server.
 */
export class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), "wisent-pg-"));
  readonly data = join(this.dir, "data");
  constructor(
    readonly bin: string,
    readonly port: number,
  ) {
    chownSync(this.dir, uidOf("postgres"), gidOf("postgres"));
  }

  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` (trust auth ignores the password). */
  url(password = ""): string {
    return `postgres://postgres${password ? `:${password}` : ""}@127.0.0.1:${this.port}/postgres`;
  }

  #run(tool: string, args: string[]): void {
    execFileSync("/usr/sbin/runuser", ["-u", "postgres", "--", join(this.bin, tool), ...args], {
      stdio: "pipe",
      cwd: this.dir,
    });
  }

  init(): void {
    this.#run("initdb", [
      "-D",
      this.data,
      "-A",
      "trust",
      "-U",
      "postgres",
      "--no-sync",
      "-E",
      "UTF8",
    ]);
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
    this.#run("pg_ctl", [
      "-D",
      this.data,
      "-o",
      options,
      "-l",
      join(this.dir, "log"),
      "-w",
      "start",
    ]);
  }

  /** Fast shutdown: open sessions are terminated, as when a database server goes away. */
  stop(): void {
    this.#run("pg_ctl", ["-D", this.data, "-m", "fast", "-w", "stop"]);
  }

  destroy(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function uidOf(user: string): number {
  return Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
}
export function gidOf(user: string): number {
  return Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());
}
