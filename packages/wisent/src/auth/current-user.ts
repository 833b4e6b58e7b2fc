import type { Context, MiddlewareHandler } from "hono";
import { AUTHENTICATION_RAN_KEY, CURRENT_USER_KEY } from "../base/symbols.js";
import type { Register } from "../http/redirect.js";
import { contextExtension } from "../kernel/context-extensions.js";
import { testSignInRequest, testSignInUnknownUser, testSignInUserId } from "./test-sign-in.js";

/**
 * The signed-in user's type: the app's `User` once it registers it, else a record with an id.
 *
 * @example
 * declare module "wisent" {
 *   interface Register {
 *     user: User;
 *   }
 * }
 */
export type CurrentUser = Register extends { user: infer U } ? U : { readonly id: string };

declare module "hono" {
  interface Context {
    /**
     * The signed-in user (loaded by `authentication()` from the session, or by
     * `tokenAuthentication()` from an `Authorization: Bearer` token), or undefined.
     *
     * @returns the user as `load` answered it (the app's `User` once it is registered), or
     *   undefined for an anonymous request or without either middleware
     * @example
     * const user = c.currentUser();
     * if (user) c.get("logger").info({ msg: `hello ${user.email}` });
     */
    currentUser(): CurrentUser | undefined;
  }
}

/** Session key of the signed-in user's id. */
export const USER_ID_SESSION_KEY = "user_id";

const USER: typeof CURRENT_USER_KEY = CURRENT_USER_KEY;
const LOADED: typeof AUTHENTICATION_RAN_KEY = AUTHENTICATION_RAN_KEY;
type Marked = Context & { [USER]?: CurrentUser; [LOADED]?: true };

/** `c.currentUser` (installed by the App, see kernel/context-extensions.ts). */
export const currentUserExtension = contextExtension(
  "currentUser",
  function currentUser(this: Context) {
    return (this as Marked)[USER];
  },
);

/** Sets the request's user (`undefined`: nobody), marking that authentication ran. */
export function setCurrentUser(c: Context, user: CurrentUser | undefined): void {
  (c as Marked)[LOADED] = true;
  (c as Marked)[USER] = user;
}

/** Whether `authentication()` or `tokenAuthentication()` ran for this request. */
export function authenticationRan(c: Context): boolean {
  return (c as Marked)[LOADED] === true;
}

/** Session key of when the user signed in (seconds since the epoch): the absolute lifetime. */
export const SIGNED_IN_AT_SESSION_KEY = "signed_in_at";
/** Session key of when the signed-in session was last used (seconds): the idle timeout. */
export const SEEN_AT_SESSION_KEY = "seen_at";
/** Session key of the user's session generation at sign-in (see {@link sessionGeneration}). */
export const SESSION_GENERATION_SESSION_KEY = "session_generation";

/** How long a signed-in session lasts at most, in seconds, by default: 2 weeks. */
export const SESSION_LIFETIME_SECONDS = 14 * 24 * 3600;

/**
 * The user's session generation: the `session_generation` column of the generated `users` table,
 * which sign-out and every password change raise by one. A session remembers the generation it
 * was signed in under; once the row's differs, that session is signed out, so one UPDATE ends
 * every session of the user at once, on any database, with no sessions table. Undefined when
 * the record has no such field (sessions then end only by lifetime or idle timeout).
 * @param user - the user's record
 * @returns its `session_generation` as a number, or undefined
 */
export function sessionGeneration(user: unknown): number | undefined {
  const value = (user as { session_generation?: unknown } | undefined)?.session_generation;
  if (typeof value === "number") return value;
  if (typeof value === "string" || typeof value === "bigint") return Number(value);
  return undefined;
}

/** Options of {@link authentication}. */
export interface AuthenticationOptions {
  /**
   * Finds the user of a session's user id; undefined when the account is gone.
   * @param c - the request's context
   * @param id - the user id the session holds
   * @returns the user, or undefined (the session is then signed out)
   */
  load(c: Context, id: string): Promise<CurrentUser | undefined> | CurrentUser | undefined;
  /** Seconds a session stays signed in after sign-in, however active; default 2 weeks. */
  readonly lifetime?: number;
  /** Seconds without a request after which a session is signed out; default none. */
  readonly idleTimeout?: number;
}

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
 * @param options - `load` finds the user of a session's user id; the session's `lifetime` and
 *   `idleTimeout` in seconds
 * @returns the middleware; it sets `c.currentUser()`
 * @throws Error, from the middleware, when `session()` is not before it
 * @throws HttpError 404 (`E_HTTP`), from the middleware, when a test sign-in names a user
 *   `load` does not find
 * @example
 * app.use(authentication({
 *   // Its own short read: the request's transaction is not begun by loading the user.
 *   load: (c, id) => readBeforeTransaction(c, (db) => User.query(db).where("id", "=", id).executeTakeFirst()),
 *   lifetime: 7 * 24 * 3600,
 *   idleTimeout: 2 * 3600,
 * }));
 */
export function authentication(options: AuthenticationOptions): MiddlewareHandler {
  const lifetime = options.lifetime ?? SESSION_LIFETIME_SECONDS;
  const idle = options.idleTimeout;
  return async (c, next) => {
    const session = c.get("session");
    if (!session) {
      throw new Error("authentication() needs session() declared before it");
    }
    const test = testSignInRequest(c);
    if (test !== undefined) return testSessionSignIn(c, test, options);
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
      user = live ? await options.load(c, id) : undefined;
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
  };
}

/**
 * The test environment's sign-in and sign-out of `wisent/testing` (see `test-sign-in.ts`): the
 * user is loaded as any request's is, and signed in by the same {@link signIn} the app's own
 * sign-in action calls, so whatever a sign-in does to the session, a test's does too.
 */
async function testSessionSignIn(
  c: Context,
  test: "in" | "out",
  options: AuthenticationOptions,
): Promise<Response> {
  if (test === "out") {
    signOut(c);
    return c.json({ signedIn: null });
  }
  const id = testSignInUserId(c);
  const user = await options.load(c, id);
  if (user === undefined) throw testSignInUnknownUser(id);
  signIn(c, user as CurrentUser & { readonly id: string });
  return c.json({ signedIn: id });
}

/**
 * Signs `user` in: a new session (fresh id and CSRF secret, so a session cookie planted or seen
 * before sign-in is worth nothing after it) holding the user's id, the time (for the session's
 * lifetime) and the user's session generation (see {@link sessionGeneration}).
 *
 * @param c - the request's context (with `session()` in the app)
 * @param user - the user to sign in (sets `c.currentUser()` for the rest of the request)
 * @throws TypeError when the app does not use `session()`
 * @example
 * signIn(c, user);
 * return c.redirectTo(303, returnPath ?? "rootPath");
 */
export function signIn(c: Context, user: CurrentUser & { readonly id: string }): void {
  const session = c.get("session");
  session.renew(["locale"]);
  session.set(USER_ID_SESSION_KEY, user.id);
  session.set(SIGNED_IN_AT_SESSION_KEY, Math.floor(Date.now() / 1000));
  const generation = sessionGeneration(user);
  if (generation !== undefined) session.set(SESSION_GENERATION_SESSION_KEY, generation);
  setCurrentUser(c, user);
}

/**
 * Signs this session out: a new, empty session (pending flash messages and the locale kept).
 * To end the user's other sessions too (copies of this cookie included), raise their session
 * generation: the generated sign-out and password reset do (`endSessions` in `src/models/user.ts`).
 * @param c - the request's context (with `session()` in the app)
 * @throws TypeError when the app does not use `session()`
 * @example
 * signOut(c);
 * return c.redirectTo(303, "rootPath");
 */
export function signOut(c: Context): void {
  c.get("session").renew(["locale"]);
  setCurrentUser(c, undefined);
}
