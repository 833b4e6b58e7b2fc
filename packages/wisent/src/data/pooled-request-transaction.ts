import {
  type CompiledQuery,
  type ConnectionProvider,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  sql,
  Transaction,
} from "kysely";
import { onlyReads } from "./read-only-query.js";
import { type TransactionHandle, transactionFinishedError } from "./transaction-handle.js";

/**
 * Whether the server's transactions are READ COMMITTED unless told otherwise (PostgreSQL's
 * `default_transaction_isolation`; the role's and the database's settings included). Only then
 * is a read outside a transaction the same as one inside: each statement sees the latest commit
 * either way.
 */
export async function readCommittedByDefault<DB>(kysely: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{
    default_transaction_isolation: string;
  }>`show default_transaction_isolation`.execute(kysely);
  return rows[0]?.default_transaction_isolation === "read committed";
}

/**
 * A pooled connection for one reading request: queries that only read run on it at once, each
 * on its own (autocommit); the first that may write (see {@link onlyReads}) sends BEGIN first,
 * and from then on every query runs inside that transaction. Queries wait for a BEGIN under
 * way, so they reach the server in the order they were made.
 */
class ReadFirstConnection implements DatabaseConnection {
  /** BEGIN, once sent; a failed BEGIN fails every later query with its error. */
  #begin: Promise<void> | undefined;
  /** BEGIN has succeeded. */
  #open = false;

  constructor(
    readonly connection: DatabaseConnection,
    private readonly driver: Driver,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#open || (this.#begin === undefined && onlyReads(query))) {
      return this.connection.executeQuery<R>(query);
    }
    return this.#begun().then(() => this.connection.executeQuery<R>(query));
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    if (!this.#open && (this.#begin !== undefined || !onlyReads(query))) await this.#begun();
    yield* this.connection.streamQuery<R>(query, chunkSize);
  }

  /** BEGIN has been sent: the connection holds a transaction (or a failed BEGIN). */
  get begun(): boolean {
    return this.#begin !== undefined;
  }

  /**
   * Ends the transaction a failed first write began (ROLLBACK, when BEGIN was sent) and goes back
   * to running reads on their own: the connection is as it was before the write.
   */
  async undoFirstWrite(): Promise<void> {
    if (this.#begin === undefined) return;
    await this.rollback();
    this.#begin = undefined;
    this.#open = false;
  }

  /** COMMIT, when BEGIN was sent; fails with BEGIN's error when BEGIN failed. */
  async commit(): Promise<void> {
    if (this.#begin === undefined) return;
    await this.#begin;
    await this.driver.commitTransaction(this.connection);
  }

  /** ROLLBACK, when BEGIN was sent (even if it failed: outside a transaction it only warns). */
  async rollback(): Promise<void> {
    if (this.#begin === undefined) return;
    await this.#begin.catch(() => {});
    await this.driver.rollbackTransaction(this.connection);
  }

  #begun(): Promise<void> {
    this.#begin ??= this.driver.beginTransaction(this.connection, {}).then(() => {
      this.#open = true;
    });
    return this.#begin;
  }
}

/** Each pooled request transaction by its `trx`, for `inWriteSavepoint`. */
const byTransaction = new WeakMap<object, FirstWriteRunner>();

/** What `inWriteSavepoint` asks of a pooled request transaction. */
export interface FirstWriteRunner {
  runAsFirstWrite<T>(write: () => Promise<T>): Promise<T> | undefined;
}

/**
 * The {@link PooledRequestTransaction} whose `trx` `db` is, if it is one.
 * @example pooledRequestTransactionOf(c.tx())?.runAsFirstWrite(() => insert())
 */
export function pooledRequestTransactionOf(db: object): FirstWriteRunner | undefined {
  return byTransaction.get(db);
}

/**
 * The transaction of a request on a pooled server database: it takes a
 * connection from the pool at its first query (none for a request that never queries), runs
 * the reads on it without BEGIN or COMMIT, and begins the transaction before its first query
 * that may write, which then holds every later query until commit or rollback. Commit sends
 * COMMIT and rollback ROLLBACK only when BEGIN was sent; either way the connection goes back to
 * the pool once, a failed commit included (after a ROLLBACK, so that no connection returns
 * inside a transaction). Queries after the end are refused.
 *
 * Reads outside a transaction are the same as reads inside one only under READ COMMITTED,
 * where each statement sees the latest commit: use it only there (see
 * {@link readCommittedByDefault}). A GET's point read then costs one round trip instead of
 * three (BEGIN, SELECT, COMMIT), and the reads a writing request makes before its first write
 * (an owner check, the record to update) hold no transaction open.
 */
export class PooledRequestTransaction<DB>
  implements TransactionHandle<DB>, ConnectionProvider, FirstWriteRunner
{
  readonly trx: Transaction<DB>;
  #connection: ReadFirstConnection | undefined;
  #acquiring: Promise<ReadFirstConnection> | undefined;
  #ended = false;
  /** A write run by {@link runAsFirstWrite} is under way. */
  #firstWrite = false;

  /**
   * `driver` is the one Kysely runs `kysely` on (the dialect's), already initialised: it was
   * when `kysely` has run a query.
   */
  constructor(
    kysely: Kysely<DB>,
    dialect: Dialect,
    private readonly driver: Driver,
  ) {
    this.trx = new Transaction<DB>({
      config: { dialect },
      driver,
      dialect,
      executor: kysely.getExecutor().withConnectionProvider(this),
    });
    byTransaction.set(this.trx, this);
  }

  /**
   * Runs a model's write that the transaction has not begun for yet (nothing that may write has
   * been sent, no other write is under way): the write's first statement sends BEGIN, and when
   * the write fails, ROLLBACK ends that transaction and the connection runs reads on their own
   * again, as before the write. That is what a savepoint set right after BEGIN would undo, at
   * two round trips fewer (SAVEPOINT and RELEASE): a create is BEGIN, INSERT, COMMIT, the BEGIN
   * sent with the INSERT (`deferredBeginClient`).
   * Undefined when the write needs a savepoint of its own (see `inWriteSavepoint`).
   */
  runAsFirstWrite<T>(write: () => Promise<T>): Promise<T> | undefined {
    if (this.#ended || this.#firstWrite || this.#connection?.begun) return undefined;
    if (this.#acquiring && !this.#connection) return undefined;
    this.#firstWrite = true;
    return write().then(
      (result) => {
        this.#firstWrite = false;
        return result;
      },
      async (error: unknown) => {
        try {
          if (!this.#ended) await this.#connection?.undoFirstWrite();
        } finally {
          this.#firstWrite = false;
        }
        throw error;
      },
    );
  }

  /** Kysely's queries on `trx` get the request's connection, taken from the pool at the first. */
  provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    if (this.#ended) return Promise.reject(transactionFinishedError());
    const held = this.#connection;
    return held ? consumer(held) : this.#acquire().then(consumer);
  }

  async commit(): Promise<void> {
    const connection = await this.#end();
    if (!connection) return;
    try {
      await connection.commit();
    } catch (error) {
      await connection.rollback().catch(() => {});
      throw error;
    } finally {
      await this.driver.releaseConnection(connection.connection);
    }
  }

  async rollback(): Promise<void> {
    const connection = await this.#end();
    if (!connection) return;
    try {
      await connection.rollback();
    } finally {
      await this.driver.releaseConnection(connection.connection);
    }
  }

  /** A failed acquisition is not kept: the next query asks the pool again. */
  #acquire(): Promise<ReadFirstConnection> {
    this.#acquiring ??= this.driver.acquireConnection().then(
      (connection) => {
        this.#connection = new ReadFirstConnection(connection, this.driver);
        return this.#connection;
      },
      (error: unknown) => {
        this.#acquiring = undefined;
        throw error;
      },
    );
    return this.#acquiring;
  }

  /**
   * Refuses later queries and a second end; the connection to end, once a query still being
   * given one has it (and has sent what it sends first), or undefined when none was taken.
   */
  #end(): ReadFirstConnection | Promise<ReadFirstConnection | undefined> | undefined {
    if (this.#ended) throw transactionFinishedError();
    this.#ended = true;
    return this.#connection ?? this.#acquiring?.catch(() => undefined);
  }
}
