/**
 * One process at a time across processes, for a SQLite database file: what `wisent db prepare`
 * holds while it creates and migrates the file, so replicas starting together on one volume
 * migrate it once (Kysely's migrator locks PostgreSQL and MySQL, not SQLite).
 * @module
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type BetterSqlite3 from "better-sqlite3";
import { requireDependency } from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";

/** How long a waiting process keeps trying before it gives up, by default. */
const DEFAULT_WAIT_MS = 10 * 60_000;
/** How often it tries again while another process holds the lock. */
const RETRY_MS = 50;

/** The lock file of a SQLite database file: beside it, matched by `db/*.sqlite*` ignore rules. */
export function sqliteLockFile(file: string): string {
  return `${file}.prepare-lock`;
}

/**
 * Runs `work` while this process holds the lock of the SQLite database `file`: an exclusive
 * transaction on the small SQLite file beside it ({@link sqliteLockFile}). The lock is SQLite's
 * own file lock, so the system releases it when a holder dies (no stale lock to clear); a waiter
 * polls without blocking the event loop, and gives up after `waitMs` naming the lock file.
 *
 * @example
 * await withSqliteFileLock("/app/db/production.sqlite", () => migrateUp(db, "migrations"));
 */
export async function withSqliteFileLock<T>(
  file: string,
  work: () => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  const lockFile = sqliteLockFile(file);
  const Sqlite = requireDependency<typeof BetterSqlite3>("better-sqlite3");
  let lock: BetterSqlite3.Database;
  try {
    mkdirSync(dirname(lockFile), { recursive: true });
    lock = new Sqlite(lockFile, { timeout: 0 });
  } catch (cause) {
    // As the image's user in a folder it does not own, SQLite says only "unable to open
    // database file": name the file, the folder and the setting.
    const why = (cause as { code?: unknown }).code ?? (cause as Error).message;
    throw new WisentError(
      "E_DATABASE_UNAVAILABLE",
      `cannot open ${lockFile} (${String(why)}): the folder ${dirname(lockFile)} must exist and be writable by this process's user, or DATABASE_URL name another database`,
      { cause },
    );
  }
  try {
    const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      try {
        lock.exec("BEGIN EXCLUSIVE");
        break;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "SQLITE_BUSY") throw error;
        if (Date.now() >= deadline) {
          throw new WisentError(
            "E_DATABASE_UNAVAILABLE",
            `another process still holds ${lockFile} (it is preparing ${file}): wait for it to finish, or stop it`,
          );
        }
        await sleep(RETRY_MS);
      }
    }
    try {
      return await work();
    } finally {
      lock.exec("ROLLBACK");
    }
  } finally {
    lock.close();
  }
}
