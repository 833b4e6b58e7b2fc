import { type ConnectionProvider, type DatabaseConnection, type Kysely, Transaction } from "kysely";
import { DIRECT_SQLITE_KEY } from "../base/symbols.js";
import type { Queryable } from "./queryable.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import type { WisentSqliteDialect } from "./sqlite-dialect.js";
import {
  type TransactionHandle,
  type TransactionIntent,
  transactionFinishedError,
} from "./transaction-handle.js";

/**
 * Runs SQL on SQLite's connection, bypassing Kysely's executor; `undefined` when the connection
 * is busy now (then the caller goes through Kysely, which waits for it).
 */
export interface DirectSqlite {
  rows<R>(sql: string, parameters: readonly unknown[], one?: boolean): R[] | undefined;
}

// Transactions whose queries may skip Kysely's executor (those without plugins, whose results
// Kysely would hand over untouched) carry their runner under this symbol. A property rather than
// a WeakMap: a WeakMap entry per request is an ephemeron the garbage collector must trace.
const DIRECT: typeof DIRECT_SQLITE_KEY = DIRECT_SQLITE_KEY;
type WithDirect = { [DIRECT]?: DirectSqlite };

/**
 * The SQLite connection a request transaction holds, for the model's hot queries (find, a page),
 * or `undefined` for anything else (the root Kysely instance, other databases, plugins).
 */
export function directSqlite(db: Queryable): DirectSqlite | undefined {
  return (db as WithDirect)[DIRECT];
}

/**
 * Lets the model read through `kysely` itself (outside a request) directly while the connection
 * is free. Without plugins only: a plugin may rewrite results, and only Kysely runs plugins.
 */
export function allowDirectSqlite<DB>(kysely: Kysely<DB>, dialect: WisentSqliteDialect): void {
  if (kysely.getExecutor().plugins.length > 0) return;
  const { driver } = dialect;
  (kysely as WithDirect)[DIRECT] = {
    rows<R>(sql: string, parameters: readonly unknown[], one?: boolean): R[] | undefined {
      if (!driver.lock.tryAcquire()) return undefined;
      try {
        return driver.connection().rows(sql, parameters, one) as R[];
      } finally {
        driver.lock.release();
      }
    },
  };
}

/**
 * One request's transaction on SQLite's single connection: the connection lock is taken
 * directly (free when nobody waits), BEGIN waits for the first statement, and queries run on
 * the connection without Kysely's per-query connection plumbing. Kysely's controlled
 * transaction costs about 10 us of promises and objects per request on top of a 5 us read.
 */
class SqliteRequestTransaction<DB>
  implements TransactionHandle<DB>, DirectSqlite, ConnectionProvider
{
  readonly trx: Transaction<DB>;
  #open = true;

  constructor(
    kysely: Kysely<DB>,
    private readonly dialect: WisentSqliteDialect,
    private readonly connection: SqliteConnection,
    intent: TransactionIntent,
  ) {
    connection.begin(intent.write);
    const executor = kysely.getExecutor().withConnectionProvider(this);
    this.trx = new Transaction<DB>({
      config: { dialect },
      driver: dialect.driver,
      dialect,
      executor,
    });
    if (executor.plugins.length === 0) (this.trx as WithDirect)[DIRECT] = this;
  }

  /** Kysely's queries on `trx` get the held connection while the transaction is open. */
  provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    return this.#open ? consumer(this.connection) : Promise.reject(transactionFinishedError());
  }

  rows<R>(sql: string, parameters: readonly unknown[], one?: boolean): R[] {
    if (!this.#open) throw transactionFinishedError();
    return this.connection.rows(sql, parameters, one) as R[];
  }

  async commit(): Promise<void> {
    this.commitNow();
  }

  async rollback(): Promise<void> {
    this.rollbackNow();
  }

  commitNow(): void {
    if (!this.#open) throw transactionFinishedError();
    // A failed COMMIT keeps the transaction (and the lock) for the rollback that follows.
    this.connection.commit();
    this.#finish();
  }

  rollbackNow(): void {
    if (!this.#open) throw transactionFinishedError();
    try {
      this.connection.rollback();
    } finally {
      this.#finish();
    }
  }

  #finish(): void {
    this.#open = false;
    this.dialect.driver.lock.release();
  }
}

/** The transaction of a request that now holds the lock (given back if it cannot begin). */
function holding<DB>(
  kysely: Kysely<DB>,
  dialect: WisentSqliteDialect,
  connection: SqliteConnection,
  intent: TransactionIntent,
): TransactionHandle<DB> {
  try {
    return new SqliteRequestTransaction(kysely, dialect, connection, intent);
  } catch (error) {
    dialect.driver.lock.release();
    throw error;
  }
}

/**
 * Begins a request transaction on SQLite at once when nobody holds the connection, else
 * undefined (then {@link sqliteRequestTransaction} waits its turn).
 */
export function sqliteRequestTransactionNow<DB>(
  kysely: Kysely<DB>,
  dialect: WisentSqliteDialect,
  intent: TransactionIntent,
): TransactionHandle<DB> | undefined {
  const connection = dialect.driver.connection();
  if (!dialect.driver.lock.tryAcquire()) return undefined;
  return holding(kysely, dialect, connection, intent);
}

/**
 * Begins a request transaction on SQLite: waits for the connection lock only when another
 * transaction or query holds it.
 */
export async function sqliteRequestTransaction<DB>(
  kysely: Kysely<DB>,
  dialect: WisentSqliteDialect,
  intent: TransactionIntent,
): Promise<TransactionHandle<DB>> {
  const connection = dialect.driver.connection();
  const waiting = dialect.driver.lock.acquire();
  if (waiting) await waiting;
  return holding(kysely, dialect, connection, intent);
}
