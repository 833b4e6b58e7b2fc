import type { Context, MiddlewareHandler } from "hono";
import type { Transaction } from "kysely";
import { HttpError } from "../../base/http-error.js";
import type { AnyDB } from "../../data/any-db.js";
import type { Database } from "../../data/database.js";
import { isDatabaseUnavailable } from "../../data/database-unavailable.js";
import { phased } from "../../kernel/compose.js";
import { bringsContextMethods, contextExtension } from "../../kernel/context-extensions.js";
import { sessionFitsBeforeCommit } from "../session/session.js";
import { RequestTransaction } from "./request-transaction.js";

declare module "hono" {
  interface ContextVariableMap {
    /** The request's lazily begun transaction (set by the `transaction` middleware). */
    tx: RequestTransaction;
  }
  interface Context {
    /**
     * The request's database transaction, begun on first use. Read the request body before
     * calling it.
     *
     * @returns the request's Kysely transaction (the same one on every call)
     * @throws HttpError 500 (`E_HTTP`) `no transaction found` without the `transaction`
     *   middleware on the route
     * @throws WisentError `E_TRANSACTION_FINISHED` when called after the request's transaction ended (a query after the
     *   response), or of the driver when no connection can be had
     * @example
     * const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
     */
    tx<DB = AnyDB>(): Promise<Transaction<DB>>;
  }
}

/** `c.tx`, brought by {@link transaction} (installed by the App, see kernel/context-extensions.ts). */
export const txExtension = contextExtension("tx", function tx(this: Context) {
  const scope = this.get("tx");
  if (!scope) {
    return Promise.reject(
      new HttpError(
        500,
        "no transaction found: c.tx() needs the transaction() middleware on this route (app.use(transaction(db)))",
      ),
    );
  }
  return scope.get();
});

/**
 * Runs `read` on the database outside the request's transaction (a short reading transaction of
 * its own), when that has not begun yet; see `RequestTransaction.readAlone`. For work that must
 * not hold a connection: look the user up, hash outside, then `c.tx()` to write.
 *
 * @example
 * const user = await readBeforeTransaction(c, (db) => findUserByEmail(db, email));
 * const check = await verifyPassword(password, user.password_digest); // no connection held
 * await AccessToken.create(await c.tx(), { user_id: user.id, token_digest });
 *
 * @param c - the request's context
 * @param read - the reads, given a transaction of their own (or the request's, once begun)
 * @returns what `read` returns
 * @throws HttpError 500 (`E_HTTP`) without the `transaction` middleware on the route; and
 *   whatever `read` throws (its transaction rolled back)
 */
export function readBeforeTransaction<T>(
  c: Context,
  read: (db: Transaction<AnyDB>) => Promise<T>,
): Promise<T> {
  const scope = c.get("tx");
  if (!scope) return Promise.reject(new HttpError(500, "no transaction found"));
  return scope.readAlone(read);
}

/** A failed commit: 503 when the server went away (errorResponse says so), else a logged 500. */
function failedCommit(cause: unknown): never {
  if (isDatabaseUnavailable(cause)) throw cause;
  console.error("database error on committing transaction:", cause);
  throw new HttpError(500, "database error on committing transaction", { cause });
}

/**
 * Wraps each request in a database transaction, available as `c.tx()` (and `c.get("tx")`).
 * It begins on first use, commits when the handler succeeds with a status below 400, rolls back
 * on an exception or a status of 400 or more, and always releases the connection. A failed
 * commit becomes a 500 with the cause logged. Before committing, the session (when `session()`
 * is in use) is checked to fit its cookie, so nothing after the commit can fail the request.
 *
 * @param database - the app's database (or the promise `openDatabase()` returns)
 * @returns the middleware; it brings `c.tx()`
 * @throws HttpError 500 (`E_HTTP`), from the middleware, when the commit fails (the cause is
 *   logged); a database that went away answers 503
 * @example
 * const db = await openDatabase();
 * app.use(transaction(db));
 */
export function transaction(database: Database | Promise<Database>): MiddlewareHandler {
  return bringsContextMethods(transactionSteps(database), [txExtension]);
}

function transactionSteps(database: Database | Promise<Database>): MiddlewareHandler {
  return phased({
    before(c) {
      const method = c.req.method;
      c.set(
        "tx",
        new RequestTransaction(database, { write: method !== "GET" && method !== "HEAD" }),
      );
    },
    // An error below has become its error response by now, recorded in c.error.
    after(c) {
      const scope = c.get("tx");
      if (scope.closeIfUnused()) return;
      if (c.error || c.res.status >= 400) {
        return thenHooks(scope, scope.rollbackNow() ? undefined : scope.rollback(), false);
      }
      // The session must fit its cookie before the commit: after it, the answer stands.
      const fits = sessionFitsBeforeCommit(c);
      if (fits) {
        return thenHooks(
          scope,
          fits.then(
            () => commitScope(scope),
            (error: unknown) => scope.rollback().then(() => Promise.reject(error)),
          ),
          true,
        );
      }
      let committed: Promise<void> | undefined;
      try {
        committed = commitScope(scope);
      } catch (error) {
        return thenHooks(scope, Promise.reject(error), true);
      }
      return thenHooks(scope, committed, true);
    },
  });
}

/**
 * The transaction's end, then its hooks (the files a request stored or replaced): those of a
 * commit when it succeeded, of a rollback when it failed.
 */
function thenHooks(
  scope: RequestTransaction,
  ended: Promise<void> | undefined,
  committing: boolean,
): Promise<void> | undefined {
  if (!ended) return scope.runHooks(committing);
  return ended.then(
    () => scope.runHooks(committing),
    async (error: unknown) => {
      await scope.runHooks(false);
      throw error;
    },
  );
}

function commitScope(scope: RequestTransaction): Promise<void> | undefined {
  try {
    if (scope.commitNow()) return;
  } catch (cause) {
    failedCommit(cause);
  }
  return scope.commit().catch(failedCommit);
}
