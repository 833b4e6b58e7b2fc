import { Context, type MiddlewareHandler } from "hono";
import type { Register } from "../http/redirect.js";
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
     * @example
     * const user = c.currentUser();
     * if (user) c.get("logger").info({ msg: `hello ${user.email}` });
     */
    currentUser(): CurrentUser | undefined;
  }
}

/** Session key of the signed-in user's id. */
export const USER_ID_SESSION_KEY = "user_id";

const USER = Symbol("wisent.currentUser");
const LOADED = Symbol("wisent.authenticationRan");
type Marked = Context & { [USER]?: CurrentUser; [LOADED]?: true };

Context.prototype.currentUser = function currentUser(this: Context) {
  return (this as Marked)[USER];
};

/** Sets the request's user (`undefined`: nobody), marking that authentication ran. */
export function setCurrentUser(c: Context, user: CurrentUser | undefined): void {
  (c as Marked)[LOADED] = true;
  (c as Marked)[USER] = user;
}

/** Whether `authentication()` or `tokenAuthentication()` ran for this request. */
export function authenticationRan(c: Context): boolean {
  return (c as Marked)[LOADED] === true;
}

/** Options of {@link authentication}. */
export interface AuthenticationOptions {
  /** Finds the user of a session's user id; undefined when the account is gone. */
  load(c: Context, id: string): Promise<CurrentUser | undefined> | CurrentUser | undefined;
}

/**
 * Loads the signed-in user from the session (the id {@link signIn} stored) for `c.currentUser()`.
 * Declare it after `session()` and `transaction()`; a session whose user is gone is signed out.
 * With `GO_ENV=test` it also answers `wisent/testing`'s `signIn(client, user)` and
 * `signOut(client)`, through {@link signIn} and {@link signOut} themselves.
 *
 * @example
 * app.use(authentication({
 *   load: async (c, id) => (await User.query(await c.tx()).where("id", "=", id).executeTakeFirst()),
 * }));
 */
export function authentication(options: AuthenticationOptions): MiddlewareHandler {
  return async (c, next) => {
    const session = c.get("session");
    if (!session) {
      throw new Error("authentication() needs session() declared before it");
    }
    const test = testSignInRequest(c);
    if (test !== undefined) return testSessionSignIn(c, test, options);
    const id = session.get<string>(USER_ID_SESSION_KEY);
    const user = typeof id === "string" ? await options.load(c, id) : undefined;
    if (id !== undefined && user === undefined) session.delete(USER_ID_SESSION_KEY);
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
 * before sign-in is worth nothing after it) holding the user's id.
 *
 * @example
 * signIn(c, user);
 * return c.redirectTo(303, returnPath ?? "rootPath");
 */
export function signIn(c: Context, user: CurrentUser & { readonly id: string }): void {
  const session = c.get("session");
  session.renew(["locale"]);
  session.set(USER_ID_SESSION_KEY, user.id);
  setCurrentUser(c, user);
}

/** Signs the user out: a new, empty session (pending flash messages and the locale kept). */
export function signOut(c: Context): void {
  c.get("session").renew(["locale"]);
  setCurrentUser(c, undefined);
}
