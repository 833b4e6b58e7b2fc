import type { Queryable } from "./queryable.js";

type Hook = () => Promise<void>;
interface Hooks {
  committed: Hook[];
  rolledBack: Hook[];
}

const HOOKS = new WeakMap<object, Hooks>();

function inTransaction(db: Queryable): boolean {
  return (db as { isTransaction?: boolean }).isTransaction === true;
}

function hooksOf(db: Queryable): Hooks {
  let hooks = HOOKS.get(db);
  if (!hooks) {
    hooks = { committed: [], rolledBack: [] };
    HOOKS.set(db, hooks);
  }
  return hooks;
}

/**
 * Runs `hook` once `db`'s request transaction has committed (at once when `db` is not a
 * transaction). Its failure is logged, never thrown: the write stands. Wisent deletes replaced
 * and destroyed files this way.
 *
 * @param db - the request's transaction (`await c.tx()`), or a database
 * @param hook - what to run, awaited when it returns a promise
 * @example
 * await afterCommit(tx, () => appStorage().delete(old.key));
 */
export async function afterCommit(db: Queryable, hook: Hook): Promise<void> {
  if (inTransaction(db)) hooksOf(db).committed.push(hook);
  else await runLogged(hook);
}

/**
 * Runs `hook` if `db`'s request transaction rolls back (never when `db` is not a transaction).
 * Its failure is logged, never thrown.
 * @param db - the request's transaction (`await c.tx()`)
 * @param hook - what to run, awaited when it returns a promise
 * @example afterRollback(tx, () => appStorage().delete(upload.key));
 */
export function afterRollback(db: Queryable, hook: Hook): void {
  if (inTransaction(db)) hooksOf(db).rolledBack.push(hook);
}

/**
 * Runs the hooks of a transaction that has just ended, committed or not (the `transaction`
 * middleware calls it); undefined when it has none.
 */
export function runTransactionHooks(trx: object, committed: boolean): Promise<void> | undefined {
  const hooks = HOOKS.get(trx);
  if (!hooks) return undefined;
  HOOKS.delete(trx);
  const run = committed ? hooks.committed : hooks.rolledBack;
  return Promise.all(run.map(runLogged)).then(() => undefined);
}

async function runLogged(hook: Hook): Promise<void> {
  try {
    await hook();
  } catch (error) {
    console.error("error in a hook after the transaction ended:", error);
  }
}
