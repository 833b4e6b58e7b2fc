import type { Context } from "hono";
import { HttpError } from "../base/http-error.js";
import { currentEnv } from "../config/settings.js";

/**
 * The path `wisent/testing`'s `signIn(client, user)` posts to (`?id=<user id>`). Answered by
 * `authentication()` (a session, through `signIn`) and `tokenAuthentication()` (a token, through
 * its `issue` option), and only when the app runs with `GO_ENV=test`: in every other environment
 * the path is an ordinary unknown path (404), as Laravel Dusk's login route is only registered
 * outside production.
 */
export const TEST_SIGN_IN_PATH = "/__wisent/test/sign-in";

/** The path `wisent/testing`'s `signOut(client)` posts to (test environment only, as above). */
export const TEST_SIGN_OUT_PATH = "/__wisent/test/sign-out";

/**
 * Which test-only request this is: `"in"`, `"out"` or undefined (any other request, and every
 * request outside the test environment). The path is compared first: other requests pay one
 * string comparison.
 */
export function testSignInRequest(c: Context): "in" | "out" | undefined {
  const path = c.req.path;
  if (path !== TEST_SIGN_IN_PATH && path !== TEST_SIGN_OUT_PATH) return undefined;
  if (c.req.method !== "POST" || currentEnv() !== "test") return undefined;
  return path === TEST_SIGN_IN_PATH ? "in" : "out";
}

/** The user id a test sign-in names (`?id=`), or a 400 naming the parameter. */
export function testSignInUserId(c: Context): string {
  const id = c.req.query("id");
  if (!id) throw new HttpError(400, "test sign-in: id is required (the id of the user to sign in)");
  return id;
}

/** The 404 a test sign-in of an unknown user gets. */
export function testSignInUnknownUser(id: string): HttpError {
  return new HttpError(404, `test sign-in: no user with id ${id}`);
}
