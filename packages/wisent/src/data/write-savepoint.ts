import { sql } from "kysely";
import { dialectOf } from "./dialect-of.js";
import { pooledRequestTransactionOf } from "./pooled-request-transaction.js";
import type { Queryable } from "./queryable.js";

let serial = 0;

/**
 * Runs a model's write so that a failing statement leaves `db`'s transaction usable: on
 * PostgreSQL, which aborts a whole transaction at its first error ("current transaction is
 * aborted"), inside a savepoint that is rolled back when `write` throws (the error is rethrown,
 * for the caller to answer 422 or 409 and go on querying); a request's first write, which begins
 * the request's transaction, is undone by ending that transaction instead (two round trips
 * fewer). SQLite and MariaDB undo only the failed
 * statement, and outside a transaction there is nothing to keep: `write` runs as it is.
 */
export async function inWriteSavepoint<T>(db: Queryable, write: () => Promise<T>): Promise<T> {
  if (!db.isTransaction || dialectOf(db) !== "postgres") return write();
  // A request's first write needs no savepoint: undoing it is ending the transaction it began.
  const first = pooledRequestTransactionOf(db)?.runAsFirstWrite(write);
  if (first) return first;
  // A name per write: a savepoint made while another is open (a write inside a write's hook)
  // would otherwise hide it.
  const name = sql.id(`wisent_write_${++serial}`);
  await sql`savepoint ${name}`.execute(db);
  let result: T;
  try {
    result = await write();
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(db);
    throw error;
  }
  await sql`release savepoint ${name}`.execute(db);
  return result;
}
