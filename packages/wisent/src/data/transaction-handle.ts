import type { Kysely, Transaction } from "kysely";
import { WisentError } from "../base/wisent-error.js";

/**
 * A transaction begun for one request: the Kysely transaction handlers query through, and how
 * to end it. Ending it twice, or querying after it ended, is refused.
 */
export interface TransactionHandle<DB> {
  readonly trx: Transaction<DB>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** The same, synchronously, where the database allows it (SQLite's one connection). */
  commitNow?(): void;
  rollbackNow?(): void;
}

/** The refusal of a query or an end after the request's transaction has ended. */
export const TRANSACTION_FINISHED = "the request's transaction has already finished";

/** The error of a query or an end after the request's transaction has ended. */
export function transactionFinishedError(): WisentError {
  return new WisentError(
    "E_TRANSACTION_FINISHED",
    `${TRANSACTION_FINISHED}: await the work inside the handler, or enqueue a job for work that outlives the request`,
  );
}

/** What a request transaction is for: `write` when the request may change data (not GET/HEAD). */
export interface TransactionIntent {
  readonly write: boolean;
}

/** Kysely's own controlled transaction, for the pooled databases (PostgreSQL, MySQL). */
export async function kyselyTransaction<DB>(kysely: Kysely<DB>): Promise<TransactionHandle<DB>> {
  const trx = await kysely.startTransaction().execute();
  return {
    trx,
    commit: () => trx.commit().execute(),
    rollback: () => trx.rollback().execute(),
  };
}
