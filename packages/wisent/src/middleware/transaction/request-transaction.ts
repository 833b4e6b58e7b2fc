import type { Transaction } from "kysely";
import type { AnyDB } from "../../data/any-db.js";
import type { Database } from "../../data/database.js";
import {
  type TransactionHandle,
  type TransactionIntent,
  transactionFinishedError,
} from "../../data/transaction-handle.js";
import { runTransactionHooks } from "../../data/transaction-hooks.js";

/**
 * The transaction of one request, begun on the first `get()` only: a request that never touches
 * the database opens none, and one that reads its body first never holds a transaction while
 * the body is still arriving.
 */
export class RequestTransaction<DB = AnyDB> {
  /** Set on the first `get()`: the handle's promise, or `true` when it began at once. */
  #begun: Promise<TransactionHandle<DB>> | true | undefined;
  #handle: TransactionHandle<DB> | undefined;
  #trx: Promise<Transaction<DB>> | undefined;
  #finished = false;

  /**
   * Made by `transaction()` for each request.
   * @param database - the app's database (or the promise of it)
   * @param intent - `write: false` for GET and HEAD requests
   */
  constructor(
    private readonly database: Database<DB> | Promise<Database<DB>>,
    /** `write: false` for GET and HEAD requests (on SQLite their reads run outside a write transaction). */
    private readonly intent: TransactionIntent = { write: true },
  ) {}

  /** True once `get()` has been called. */
  get begun(): boolean {
    return this.#begun !== undefined;
  }

  /**
   * The transaction, begun on the first call (what `c.tx()` answers).
   * @returns the request's Kysely transaction, the same one on every call
   * @throws WisentError `E_TRANSACTION_FINISHED` when the request's transaction already ended
   */
  get(): Promise<Transaction<DB>> {
    if (this.#finished) {
      return Promise.reject(transactionFinishedError());
    }
    if (!this.#trx) {
      const database = this.database;
      const now = database instanceof Promise ? undefined : database.beginRequestNow(this.intent);
      if (now) {
        this.#handle = now;
        this.#begun = true;
        this.#trx = Promise.resolve(now.trx);
        return this.#trx;
      }
      this.#begun =
        database instanceof Promise
          ? database.then((db) => db.beginRequest(this.intent))
          : database.beginRequest(this.intent);
      this.#trx = this.#begun.then((handle) => {
        this.#handle = handle;
        return handle.trx;
      });
    }
    return this.#trx;
  }

  /**
   * Runs `read` in a short reading transaction of its own, committed before this returns, when
   * the request's transaction has not begun (else in the request's). So a handler can look a
   * record up, then do slow work that needs no database (hashing a password), then begin the
   * request's transaction to write, without holding a connection (on SQLite, the only one)
   * through the slow part.
   * @param read - the reads, given the transaction to read with
   * @returns what `read` returns
   */
  async readAlone<T>(read: (db: Transaction<DB>) => Promise<T>): Promise<T> {
    if (this.#begun !== undefined || this.#finished) return read(await this.get());
    const database = await this.database;
    const handle = await database.beginRequest({ write: false });
    let result: T;
    try {
      result = await read(handle.trx);
    } catch (error) {
      await handle.rollback().catch(logFailedRollback);
      throw error;
    }
    await handle.commit();
    return result;
  }

  /**
   * Ends a scope whose transaction was never begun, at once (a later `get()` is refused, so a
   * stray query after the response cannot take the connection); false when one was begun.
   */
  closeIfUnused(): boolean {
    if (this.#begun) return false;
    this.#finished = true;
    return true;
  }

  /**
   * {@link commit} done synchronously when the transaction allows it (SQLite): true when done
   * (or nothing was begun), false when the caller must await `commit()`. A failure rolls back
   * and is thrown, as with `commit()`.
   */
  commitNow(): boolean {
    const handle = this.#handle;
    if (this.#begun && !handle?.commitNow) return false;
    this.#finished = true;
    if (!handle) return true;
    try {
      handle.commitNow!();
    } catch (error) {
      try {
        handle.rollbackNow?.();
      } catch {}
      throw error;
    }
    return true;
  }

  /** {@link rollback} done synchronously when the transaction allows it; false otherwise. */
  rollbackNow(): boolean {
    const handle = this.#handle;
    if (this.#begun && !handle?.rollbackNow) return false;
    this.#finished = true;
    if (!handle) return true;
    try {
      handle.rollbackNow!();
    } catch (error) {
      logFailedRollback(error);
    }
    return true;
  }

  /** Commits if begun; on failure rolls back (releasing the connection) and rethrows. */
  async commit(): Promise<void> {
    const handle = await this.#settle();
    if (!handle) return;
    try {
      await handle.commit();
    } catch (error) {
      await handle.rollback().catch(() => {});
      throw error;
    }
  }

  /** Rolls back if begun; a failed rollback is logged, never thrown over the original error. */
  async rollback(): Promise<void> {
    const handle = await this.#settle();
    if (!handle) return;
    try {
      await handle.rollback();
    } catch (error) {
      logFailedRollback(error);
    }
  }

  /**
   * Runs the hooks registered on the transaction (`afterCommit`, `afterRollback`) once it has
   * ended; undefined when there are none (most requests).
   * @param committed - whether the transaction committed (else the rollback hooks run)
   * @returns the hooks' run, or undefined
   */
  runHooks(committed: boolean): Promise<void> | undefined {
    const trx = this.#handle?.trx;
    return trx ? runTransactionHooks(trx, committed, this.database) : undefined;
  }

  /** The handle once begun (without waiting when the handler already has it). */
  #settle(): TransactionHandle<DB> | Promise<TransactionHandle<DB> | undefined> | undefined {
    this.#finished = true;
    if (this.#handle || !(this.#begun instanceof Promise)) return this.#handle;
    return this.#begun.catch(() => undefined);
  }
}

/** A failed rollback is reported, never thrown over the error that caused it. */
function logFailedRollback(error: unknown): void {
  console.error("database error on rolling back transaction:", error);
}
