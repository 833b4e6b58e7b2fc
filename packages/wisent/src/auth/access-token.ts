import { createHash, randomBytes } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Transaction } from "kysely";
import { bringsRouteGuards } from "../app/route-guards.js";
import { HttpError } from "../base/http-error.js";
import { ACCESS_TOKEN_DIGEST_KEY, BEARER_TOKENS_KEY } from "../base/symbols.js";
import type { AnyDB } from "../data/any-db.js";
import { usesBearerTokens } from "./bearer-mark.js";
import { type CurrentUser, setCurrentUser } from "./current-user.js";
import { AUTH_ROUTE_GUARDS } from "./route-guards.js";
import { testSignInRequest, testSignInUnknownUser, testSignInUserId } from "./test-sign-in.js";
import { userLoader } from "./user-loader.js";

/**
 * A new access token: `token` is shown to the client once, only `digest` (its SHA-256, hex) is
 * stored. 32 random bytes leave nothing to guess, so a fast hash is enough (no salt, no scrypt):
 * the digest is looked up directly.
 *
 * @returns `token` (43 base64url characters) to hand out, and `digest` to store
 * @example
 * const { token, digest } = newAccessToken();
 * await AccessToken.create(tx, { user_id: user.id, token_digest: digest });
 * return c.json({ token }, 201);
 */
export function newAccessToken(): { token: string; digest: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, digest: accessTokenDigest(token) };
}

/**
 * The stored form of a token: its SHA-256, hex.
 * @param token - the token as the client sends it
 * @returns 64 hex characters
 * @example accessTokenDigest(token) === stored.token_digest
 */
export function accessTokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The token of an `Authorization: Bearer <token>` header.
 * @param c - the request's context
 * @returns the token, or undefined when the header is missing or not a bearer token
 */
export function bearerToken(c: Context): string | undefined {
  const header = c.req.header("authorization");
  const match = header ? /^Bearer[ \t]+([\w.~+/-]+=*)[ \t]*$/i.exec(header) : null;
  return match?.[1];
}

const DIGEST: typeof ACCESS_TOKEN_DIGEST_KEY = ACCESS_TOKEN_DIGEST_KEY;
const BEARER: typeof BEARER_TOKENS_KEY = BEARER_TOKENS_KEY;
type Marked = Context & { [DIGEST]?: string; [BEARER]?: true };

export { usesBearerTokens };

/**
 * The digest of the token this request was authenticated with (to revoke it).
 * @param c - the request's context
 * @returns the digest, or undefined when no token signed the request in
 * @example await AccessToken.query(tx).where("token_digest", "=", currentTokenDigest(c)!)...
 */
export function currentTokenDigest(c: Context): string | undefined {
  return (c as Marked)[DIGEST];
}

/** Options of {@link tokenAuthentication}. */
export interface TokenAuthenticationOptions {
  /**
   * Finds the user of a token digest in `db`, undefined when no live token has it. `db` is a
   * short reading transaction of its own, before the request's: loading the user never begins
   * the request's transaction (on SQLite, a POST would hold the write lock from then on). Give
   * `find` or `load`.
   * @param db - the app's database, read outside the request's transaction
   * @param digest - the SHA-256 (hex) of the request's bearer token
   * @returns the user, or undefined (the request is anonymous)
   * @example find: (db, digest) => userOfToken(db, digest)
   */
  find?(db: Transaction<AnyDB>, digest: string): Promise<CurrentUser | undefined>;
  /**
   * Finds the user of a token digest however the app likes, run as given with the request's
   * context. Give `find` or `load`.
   * @param c - the request's context
   * @param digest - the SHA-256 (hex) of the request's bearer token
   * @returns the user, or undefined (the request is anonymous)
   */
  load?(c: Context, digest: string): Promise<CurrentUser | undefined> | CurrentUser | undefined;
  /**
   * Stores a new token for the user with this id and answers it (undefined when there is no such
   * user). The app's token action can use it too; `wisent/testing`'s `signIn(client, user)` needs
   * it (with `GO_ENV=test` only) to give a test client a token without a password.
   * @param c - the request's context
   * @param userId - the user to make a token for
   * @returns the new token (shown once), or undefined when there is no such user
   */
  issue?(c: Context, userId: string): Promise<string | undefined> | string | undefined;
}

/**
 * Loads the user of an `Authorization: Bearer` token for `c.currentUser()` (an API app's
 * counterpart of `authentication()`): the token's SHA-256 is what `load` looks up. With
 * `GO_ENV=test` it also answers `wisent/testing`'s `signIn(client, user)` with a token from `issue`.
 *
 * @param options - `find` (or `load`) finds the user of a token's digest; `issue` makes a token for a user
 *   id (used by the app's token action and by the test sign-in)
 * @returns the middleware; it sets `c.currentUser()`
 * @throws WisentError `E_APP_MISCONFIGURED` unless exactly one of `find` and `load` is given
 * @throws HttpError 501 (`E_HTTP`), from the middleware, when a test sign-in asks for a token and
 *   there is no `issue`
 * @example
 * app.use(tokenAuthentication({
 *   find: (db, digest) => userOfToken(db, digest),
 *   issue: async (c, userId) => issueToken(await c.tx(), userId),
 * }));
 */
export function tokenAuthentication(options: TokenAuthenticationOptions): MiddlewareHandler {
  const load = userLoader(options, "tokenAuthentication");
  // It brings authentication's route guards: the App maps owned and secured resources with them.
  return bringsRouteGuards(async (c, next) => {
    const test = testSignInRequest(c);
    if (test !== undefined) return testTokenSignIn(c, test, options);
    const token = bearerToken(c);
    let user: CurrentUser | undefined;
    if (token !== undefined) {
      const digest = accessTokenDigest(token);
      user = await load(c, digest);
      if (user !== undefined) (c as Marked)[DIGEST] = digest;
    }
    (c as Marked)[BEARER] = true;
    setCurrentUser(c, user);
    await next();
  }, AUTH_ROUTE_GUARDS);
}

/** The test environment's token for `wisent/testing`'s `signIn` (see `test-sign-in.ts`). */
async function testTokenSignIn(
  c: Context,
  test: "in" | "out",
  options: TokenAuthenticationOptions,
): Promise<Response> {
  // A token client signs out by dropping its token; nothing to end on the server.
  if (test === "out") return c.json({ token: null });
  if (!options.issue) {
    throw new HttpError(
      501,
      "test sign-in: tokenAuthentication() has no issue(c, userId) option to make a token with",
    );
  }
  const id = testSignInUserId(c);
  const token = await options.issue(c, id);
  if (token === undefined) throw testSignInUnknownUser(id);
  return c.json({ token });
}
