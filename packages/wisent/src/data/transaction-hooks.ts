import type { Queryable } from "./queryable.js";

/**
 * Run once the transaction has ended, given the database it ran on (outside the transaction,
 * to read what was committed), when known.
 */
type Hook = (database: Queryable | undefined) => Promise<void>;

/** The database a request transaction ran on: the `Database` the middleware was given. */
export type HookDatabase = { readonly kysely: unknown } | Promise<{ readonly kysely: unknown }>;
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
 * transaction). It is given the database outside the transaction, to read what was committed
 * (undefined when the transaction's owner did not say). Its failure is logged, never thrown:
 * the write stands. Wisent deletes replaced and destroyed files this way.
 *
 * @param db - the request's transaction (`await c.tx()`), or a database
 * @param hook - what to run, awaited when it returns a promise
 * @example
 * await afterCommit(tx, () => appStorage().delete(old.key));
 */
export async function afterCommit(db: Queryable, hook: Hook): Promise<void> {
  if (inTransaction(db)) hooksOf(db).committed.push(hook);
  else await runLogged(hook, db);
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
 * middleware calls it, with the database it began the transaction on); undefined when it has
 * none.
 */
export function runTransactionHooks(
  trx: object,
  committed: boolean,
  database?: HookDatabase,
): Promise<void> | undefined {
  const hooks = HOOKS.get(trx);
  if (!hooks) return undefined;
  HOOKS.delete(trx);
  const run = committed ? hooks.committed : hooks.rolledBack;
  return Promise.resolve(database).then((found) => {
    const root = found?.kysely as Queryable | undefined;
    return Promise.all(run.map((hook) => runLogged(hook, root))).then(() => undefined);
  });
}

async function runLogged(hook: Hook, database: Queryable | undefined): Promise<void> {
  try {
    await hook(database);
  } catch (error) {
    console.error("error in a hook after the transaction ended:", error);
  }
}
