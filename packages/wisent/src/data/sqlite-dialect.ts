import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import { cacheStatements } from "./sqlite-statement-cache.js";

/** Options of the embedded SQLite database. */
export interface SqliteOptions {
  /** How long a writer waits for another process's lock before SQLITE_BUSY (default 5000 ms). */
  busyTimeoutMs?: number;
  /** Prepared statements kept per connection, keyed by SQL text (default 500; 0 turns caching off). */
  statementCacheSize?: number;
}

/**
 * Transactions start with BEGIN IMMEDIATE: a deferred transaction that reads and then writes can
 * fail at once with SQLITE_BUSY when another process (another `wisent start` worker) holds the
 * write lock, and the busy timeout does not help there. In one process Kysely's connection mutex
 * already runs transactions one at a time.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
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

class WisentSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * Opens a SQLite file (creating its folder) with WAL, a busy timeout and foreign keys on, and
 * returns the Kysely dialect for it. With `lazy`, the file is opened on the first query instead
 * (so importing an app's `db.ts` touches nothing, e.g. for `wisent routes`).
 */
export function sqliteDialect(
  file: string,
  options: SqliteOptions = {},
  lazy = false,
): SqliteDialect {
  const open = () => {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    const db = new BetterSqlite3(file, { timeout: options.busyTimeoutMs ?? 5000 });
    if (file !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    // WAL makes NORMAL durable against application crashes; only a power loss can drop the last commits.
    db.pragma("synchronous = NORMAL");
    const cacheSize = options.statementCacheSize ?? 500;
    return cacheSize > 0 ? cacheStatements(db, cacheSize) : db;
  };
  return new WisentSqliteDialect({ database: lazy ? async () => open() : open() });
}
