import type { Context, MiddlewareHandler } from "hono";
import { bringsRouteGuards } from "../app/route-guards.js";
import { WisentError } from "../base/wisent-error.js";
import {
  type AuthenticationOptions,
  type CurrentUser,
  SEEN_AT_SESSION_KEY,
  SESSION_GENERATION_SESSION_KEY,
  SESSION_LIFETIME_SECONDS,
  SIGNED_IN_AT_SESSION_KEY,
  sessionGeneration,
  setCurrentUser,
  signIn,
  signOut,
  USER_ID_SESSION_KEY,
} from "./current-user.js";
import { AUTH_ROUTE_GUARDS } from "./route-guards.js";
import { testSignInRequest, testSignInUnknownUser, testSignInUserId } from "./test-sign-in.js";
import { type UserLoad, userLoader } from "./user-loader.js";

/**
 * Loads the signed-in user from the session (the id {@link signIn} stored) for `c.currentUser()`.
 * Declare it after `session()` and `transaction()`. A session is signed out (renewed, empty)
 * when its user is gone, when its user's session generation changed since sign-in (sign-out or
 * a password change anywhere), past its lifetime (default 2 weeks) or, with `idleTimeout`, after
 * that long unused. Only a session holding a user id costs a query (the `load`); anonymous
 * visitors cost none. With `GO_ENV=test` it also answers `wisent/testing`'s
 * `signIn(client, user)` and `signOut(client)`, through {@link signIn} and {@link signOut}
 * themselves.
 *
 * @param options - `find` finds the user of a session's user id in the database, outside the
 *   request's transaction (or `load`, run as given); the session's `lifetime` and
 *   `idleTimeout` in seconds
 * @returns the middleware; it sets `c.currentUser()`
 * @throws WisentError `E_APP_MISCONFIGURED` unless exactly one of `find` and `load` is given;
 *   from the middleware, when `session()` is not before it (or `transaction()`, with `find`)
 * @throws HttpError 404 (`E_HTTP`), from the middleware, when a test sign-in names a user
 *   `load` does not find
 * @example
 * app.use(authentication({
 *   // A short read of its own: loading the user does not begin the request's transaction.
 *   find: (db, id) => User.query(db).where("id", "=", id).executeTakeFirst(),
 *   lifetime: 7 * 24 * 3600,
 *   idleTimeout: 2 * 3600,
 * }));
 */
export function authentication(options: AuthenticationOptions): MiddlewareHandler {
  const load = userLoader(options, "authentication");
  const lifetime = options.lifetime ?? SESSION_LIFETIME_SECONDS;
  const idle = options.idleTimeout;
  // It brings authentication's route guards: the App maps owned and secured resources with them.
  return bringsRouteGuards(async (c, next) => {
    const session = c.get("session");
    if (!session) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        "authentication() needs session() declared before it",
      );
    }
    const test = testSignInRequest(c);
    if (test !== undefined) return testSessionSignIn(c, test, load);
    const id = session.get<string>(USER_ID_SESSION_KEY);
    let user: CurrentUser | undefined;
    if (typeof id === "string") {
      const seconds = Math.floor(Date.now() / 1000);
      const signedInAt = session.get<number>(SIGNED_IN_AT_SESSION_KEY);
      const seenAt = session.get<number>(SEEN_AT_SESSION_KEY) ?? signedInAt;
      const live =
        typeof signedInAt === "number" &&
        seconds - signedInAt < lifetime &&
        (idle === undefined || (typeof seenAt === "number" && seconds - seenAt < idle));
      user = live ? await load(c, id) : undefined;
      if (user !== undefined) {
        const generation = sessionGeneration(user);
        const signedInUnder = session.get<number>(SESSION_GENERATION_SESSION_KEY);
        if (generation !== undefined && generation !== signedInUnder) user = undefined;
      }
      if (user === undefined) signOut(c);
      // The time seen is kept to the minute: a busy visitor's cookie is not resealed every request.
      else if (idle !== undefined && seconds - (seenAt as number) >= Math.min(60, idle / 10)) {
        session.set(SEEN_AT_SESSION_KEY, seconds);
      }
    }
    setCurrentUser(c, user);
    await next();
  }, AUTH_ROUTE_GUARDS);
}

/**
 * The test environment's sign-in and sign-out of `wisent/testing` (see `test-sign-in.ts`): the
 * user is loaded as any request's is, and signed in by the same {@link signIn} the app's own
 * sign-in action calls, so whatever a sign-in does to the session, a test's does too.
 */
async function testSessionSignIn(
  c: Context,
  test: "in" | "out",
  load: UserLoad,
): Promise<Response> {
  if (test === "out") {
    signOut(c);
    return c.json({ signedIn: null });
  }
  const id = testSignInUserId(c);
  const user = await load(c, id);
  if (user === undefined) throw testSignInUnknownUser(id);
  signIn(c, user as CurrentUser & { readonly id: string });
  return c.json({ signedIn: id });
}
