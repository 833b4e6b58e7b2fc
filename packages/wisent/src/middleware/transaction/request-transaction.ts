import type { ControlledTransaction, Transaction } from "kysely";
import type { AnyDB } from "../../data/any-db.js";
import type { Database } from "../../data/database.js";

/**
 * The transaction of one request, begun on the first `get()` only: a request that never touches
 * the database opens none, and one that reads its body first never holds a transaction while
 * the body is still arriving.
 */
export class RequestTransaction<DB = AnyDB> {
  #begun: Promise<ControlledTransaction<DB>> | undefined;
  #finished = false;

  constructor(private readonly database: Database<DB> | Promise<Database<DB>>) {}

  /** True once `get()` has been called. */
  get begun(): boolean {
    return this.#begun !== undefined;
  }

  /** The transaction, begun on the first call. */
  get(): Promise<Transaction<DB>> {
    if (this.#finished) {
      return Promise.reject(new Error("the request's transaction has already finished"));
    }
    this.#begun ??= Promise.resolve(this.database).then((db) => db.begin());
    return this.#begun;
  }

  /** Commits if begun; on failure rolls back (releasing the connection) and rethrows. */
  async commit(): Promise<void> {
    const trx = await this.#settle();
    if (!trx) return;
    try {
      await trx.commit().execute();
    } catch (error) {
      // Kysely keeps the connection when COMMIT fails; ROLLBACK releases it in any case.
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      throw error;
    }
  }

  /** Rolls back if begun; a failed rollback is logged, never thrown over the original error. */
  async rollback(): Promise<void> {
    const trx = await this.#settle();
    if (!trx) return;
    try {
      await trx.rollback().execute();
    } catch (error) {
      console.error("database error on rolling back transaction:", error);
    }
  }

  async #settle(): Promise<ControlledTransaction<DB> | undefined> {
    this.#finished = true;
    if (!this.#begun) return undefined;
    // A failed BEGIN already surfaced to the handler; there is nothing to end.
    return this.#begun.catch(() => undefined);
  }
}
