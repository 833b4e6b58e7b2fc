import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll } from "vitest";
import { type Database, openDatabase } from "../database.js";
import type { DialectName } from "../database-url.js";
import { migrateUp } from "../migrations.js";
import { MIGRATIONS } from "./widget.js";

/** Servers the data tests run against; override with WISENT_TEST_POSTGRES_URL / WISENT_TEST_MYSQL_URL. */
export const ADMIN_URLS: Record<Exclude<DialectName, "sqlite">, string> = {
  postgres: process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  mysql: process.env.WISENT_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test",
};

export const DIALECTS: DialectName[] = ["sqlite", "postgres", "mysql"];

/** A throwaway database; `drop()` closes it and removes it from the server. */
export interface TestDatabase {
  db: Database;
  /** Its URL, password included (for a child process to open it too). */
  url: string;
  drop(): Promise<void>;
}

/**
 * Which dialects can run here: SQLite always; a server only when it answers. The reason for a
 * skip is printed so that a skipped dialect is never mistaken for a passing one.
 */
export async function availableDialects(): Promise<Record<DialectName, boolean>> {
  const result: Record<DialectName, boolean> = { sqlite: true, postgres: false, mysql: false };
  for (const dialect of ["postgres", "mysql"] as const) {
    try {
      const admin = await openDatabase(ADMIN_URLS[dialect], { poolSize: 1 });
      await admin.close();
      result[dialect] = true;
    } catch (error) {
      console.warn(`SKIPPING ${dialect} data tests: ${(error as Error).message}`);
    }
  }
  return result;
}

/** Whether a Redis server answers on 127.0.0.1:6379, where the Redis tests look for one. */
export function redisAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(6379, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function replaceDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}

/** Options of a test database. */
export interface TestDatabaseOptions {
  poolSize?: number;
  /**
   * PostgreSQL: settings of the new database (`alter database ... set`), made before it is
   * opened, so that every session on it starts with them, e.g.
   * `{ default_transaction_isolation: "repeatable read" }`.
   */
  settings?: Record<string, string>;
  /** The migrations folder `migratedTestDatabase` runs (default: widgets and parts). */
  migrations?: string;
  /** The database's name before its random part (default `wisent_test`). */
  prefix?: string;
}

/**
 * Creates `wisent_test_<random>` (or `<prefix>_<random>`) on the dialect's server (a temp file
 * for SQLite) and opens it.
 */
export async function createTestDatabase(
  dialect: DialectName,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const name = `${options.prefix ?? "wisent_test"}_${randomBytes(6).toString("hex")}`;
  if (dialect === "sqlite") {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = await mkdtemp(join(tmpdir(), "wisent-data-"));
    const url = `sqlite:${join(dir, `${name}.sqlite`)}`;
    const db = await openDatabase(url);
    return {
      db,
      url,
      async drop() {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = ADMIN_URLS[dialect];
  const admin = await openDatabase(adminUrl, { poolSize: 1 });
  await sql`create database ${sql.id(name)}`.execute(admin.kysely);
  for (const [key, value] of Object.entries(options.settings ?? {})) {
    await sql`alter database ${sql.id(name)} set ${sql.id(key)} = ${sql.lit(value)}`.execute(
      admin.kysely,
    );
  }
  const url = replaceDatabase(adminUrl, name);
  const db = await openDatabase(url, options);
  return {
    db,
    url,
    async drop() {
      await db.close();
      await sql`drop database ${sql.id(name)}`.execute(admin.kysely);
      await admin.close();
    },
  };
}

/**
 * A throwaway database migrated with the test-support migrations (widgets, parts), for one
 * dialect's describe block: made before its tests when the dialect is available, dropped after.
 *
 * @example
 * describe.each(DIALECTS)("models on %s", (dialect) => {
 *   const t = migratedTestDatabase(dialect, available[dialect]);
 *   it.skipIf(!available[dialect])("finds", async () => { await Widget.all(t.db.kysely); });
 * });
 */
export function migratedTestDatabase(
  dialect: DialectName,
  available: boolean,
  options: TestDatabaseOptions = {},
): { readonly db: Database } {
  let made: TestDatabase | undefined;
  beforeAll(async () => {
    if (!available) return;
    made = await createTestDatabase(dialect, options);
    await migrateUp(made.db, options.migrations ?? MIGRATIONS);
  });
  afterAll(async () => {
    await made?.drop();
  });
  return {
    get db() {
      if (!made) throw new Error(`no ${dialect} test database (is the server reachable?)`);
      return made.db;
    },
  };
}
