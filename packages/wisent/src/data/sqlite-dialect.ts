import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import {
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { nativeBinaryError, requireDependency } from "../base/require-dependency.js";
import { WisentSqliteDriver } from "./sqlite-driver.js";

/** Options of the embedded SQLite database. */
export interface SqliteOptions {
  /** How long a writer waits for another process's lock before SQLITE_BUSY (default 5000 ms). */
  busyTimeoutMs?: number;
  /** Prepared statements kept per connection, keyed by SQL text (default 500; 0 turns caching off). */
  statementCacheSize?: number;
}

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it does not, so its Migrator ran
 * each statement on its own: a `migrate` interrupted inside a migration left that migration's
 * first tables behind without its row in `wisent_migration` (and the re-run failed on them).
 * Declared transactional, the Migrator runs the pending migrations in one transaction, as on
 * PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect on Wisent's driver; `driver` is the one instance Kysely runs on. */
export class WisentSqliteDialect implements Dialect {
  constructor(readonly driver: WisentSqliteDriver) {}
  createDriver(): Driver {
    return this.driver;
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * The Kysely dialect of a SQLite file (its folder created) with WAL, a busy timeout and foreign
 * keys on. The file is opened on the first query, so importing an app's `db.ts` touches nothing
 * (e.g. for `wisent routes`); `lazy: false` opens it at once.
 */
export function sqliteDialect(
  file: string,
  options: SqliteOptions = {},
  lazy = false,
): WisentSqliteDialect {
  const open = () => {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    let db: BetterSqlite3.Database;
    try {
      // better-sqlite3 13 loads its binary on import; 12 did on the first open.
      const Sqlite = requireDependency<typeof BetterSqlite3>("better-sqlite3");
      db = new Sqlite(file, { timeout: options.busyTimeoutMs ?? 5000 });
    } catch (error) {
      throw nativeBinaryError(error, "better-sqlite3") ?? error;
    }
    if (file !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    // WAL makes NORMAL durable against application crashes; only a power loss can drop the last commits.
    db.pragma("synchronous = NORMAL");
    return db;
  };
  const driver = new WisentSqliteDriver({
    open,
    statementCacheSize: options.statementCacheSize ?? 500,
  });
  if (!lazy) driver.connection();
  return new WisentSqliteDialect(driver);
}
