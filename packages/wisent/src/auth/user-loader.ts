import type { Context } from "hono";
import type { Transaction } from "kysely";
import { WisentError } from "../base/wisent-error.js";
import type { AnyDB } from "../data/any-db.js";
import { readBeforeTransaction } from "../middleware/transaction/transaction.js";
import type { CurrentUser } from "./current-user.js";

/** A user looked up by a key (a session's user id, a token's digest), however the app does it. */
export type UserLoad = (
  c: Context,
  key: string,
) => Promise<CurrentUser | undefined> | CurrentUser | undefined;

/** A user found in the database by a key, given the database to read. */
export type UserFind = (db: Transaction<AnyDB>, key: string) => Promise<CurrentUser | undefined>;

/**
 * How `authentication()` and `tokenAuthentication()` get the request's user: `load` as given, or
 * `find` in a short reading transaction of its own, before the request's (see
 * `readBeforeTransaction`). A request that writes would otherwise begin its transaction with
 * that read, and on SQLite hold the database's one write lock through whatever slow work its
 * handler does first (hashing a password).
 *
 * @throws WisentError `E_APP_MISCONFIGURED` when neither (or both) is given, and, from a request,
 *   when `find` is given without `transaction(db)` before the middleware
 */
export function userLoader(options: { find?: UserFind; load?: UserLoad }, who: string): UserLoad {
  const { find, load } = options;
  if ((find === undefined) === (load === undefined)) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${who}() takes find(db, key) (the usual: a query on the database) or load(c, key), one of them`,
    );
  }
  if (load !== undefined) return load;
  return (c, key) => {
    if (!c.get("tx")) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `${who}({ find }) reads the user on the app's database: declare transaction(db) before it (the App does when given its database)`,
      );
    }
    return readBeforeTransaction(c, (db) => find!(db, key));
  };
}
