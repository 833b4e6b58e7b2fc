import type { Context } from "hono";
import type { Transaction } from "kysely";
import { AUTHENTICATION_RAN_KEY, CURRENT_USER_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import type { AnyDB } from "../data/any-db.js";
import type { Register } from "../http/redirect.js";
import type { Session } from "../middleware/session/session.js";

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
   * Finds the user of a session's user id in `db`, undefined when the account is gone. `db` is a
   * short reading transaction of its own, before the request's: loading the user never begins
   * the request's transaction (on SQLite, a POST would hold the write lock from then on, through
   * slow work such as hashing a password). Give `find` or `load`.
   * @param db - the app's database, read outside the request's transaction
   * @param id - the user id the session holds
   * @returns the user, or undefined (the session is then signed out)
   * @example find: (db, id) => User.query(db).where("id", "=", id).executeTakeFirst()
   */
  find?(db: Transaction<AnyDB>, id: string): Promise<CurrentUser | undefined>;
  /**
   * Finds the user of a session's user id however the app likes (not in the database, a cache):
   * run as given, with the request's context. Give `find` or `load`.
   * @param c - the request's context
   * @param id - the user id the session holds
   * @returns the user, or undefined (the session is then signed out)
   */
  load?(c: Context, id: string): Promise<CurrentUser | undefined> | CurrentUser | undefined;
  /** Seconds a session stays signed in after sign-in, however active; default 2 weeks. */
  readonly lifetime?: number;
  /** Seconds without a request after which a session is signed out; default none. */
  readonly idleTimeout?: number;
}

/**
 * Signs `user` in: a new session (fresh id and CSRF secret, so a session cookie planted or seen
 * before sign-in is worth nothing after it) holding the user's id, the time (for the session's
 * lifetime) and the user's session generation (see {@link sessionGeneration}).
 *
 * @param c - the request's context (with `session()` in the app)
 * @param user - the user to sign in (sets `c.currentUser()` for the rest of the request)
 * @throws WisentError `E_APP_MISCONFIGURED` when the app does not use `session()`
 * @example
 * signIn(c, user);
 * return c.redirectTo(303, returnPath ?? "rootPath");
 */
export function signIn(c: Context, user: CurrentUser & { readonly id: string }): void {
  const session = sessionOf(c, "signIn");
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
 * @throws WisentError `E_APP_MISCONFIGURED` when the app does not use `session()`
 * @example
 * signOut(c);
 * return c.redirectTo(303, "rootPath");
 */
export function signOut(c: Context): void {
  sessionOf(c, "signOut").renew(["locale"]);
  setCurrentUser(c, undefined);
}

function sessionOf(c: Context, helper: string): Session {
  const session = c.get("session") as Session | undefined;
  if (session) return session;
  throw new WisentError(
    "E_APP_MISCONFIGURED",
    `${helper}(c): the app does not use session(): add app.use(session()) before the routes that sign in and out`,
  );
}
