import { TEST_SIGN_IN_PATH, TEST_SIGN_OUT_PATH } from "../auth/test-sign-in.js";
import { WisentError } from "../base/wisent-error.js";
import type { TestClient } from "./test-client.js";

/** Removes every spelling of the `authorization` header from the client's default headers. */
function dropAuthorization(client: TestClient): void {
  for (const name of Object.keys(client.headers)) {
    if (name.toLowerCase() === "authorization") delete client.headers[name];
  }
}

async function refused(what: string, response: Response): Promise<Error> {
  const hint =
    response.status === 404 || response.status === 405
      ? " (the app answers it only with GO_ENV=test, from authentication() or tokenAuthentication() in its middleware)"
      : "";
  return new WisentError(
    "E_TEST_SETUP",
    `${what}: the app answered ${response.status}${hint}: ${await response.text()}`,
  );
}

/**
 * Signs the test client in as `user` (Laravel's `actingAs`, AdonisJS' `loginAs`), without a
 * password: a web app's session is made by the app's own `signIn` (the same code its sign-in
 * action runs, so the session is what a real sign-in gives), an API app's client gets a bearer
 * token from `tokenAuthentication()`'s `issue` and sends it with every request. Needs the app to
 * run with `GO_ENV=test` (as an app's tests do); works for an in-process client and for one whose
 * app forwards to a running server.
 *
 * @example
 * const ada = await User.create(await db(), { email: "ada@example.com", password_digest: await hashPassword("pw-of-ada-1") });
 * const client = testClient(app);
 * await signIn(client, ada);
 * expect((await client.get("/notes")).status).toBe(200);
 * await signOut(client);
 * expect((await client.get("/notes", { headers: { accept: "application/json" } })).status).toBe(401);
 *
 * @param client - the test client to sign in (its cookies or default headers change)
 * @param user - the user to sign in as (a stored record: its `id` is enough)
 * @throws Error with the app's answer when it refuses: not running with `GO_ENV=test`, or no
 *   `authentication()` / `tokenAuthentication()` in its middleware
 */
export async function signIn(client: TestClient, user: { readonly id: string }): Promise<void> {
  dropAuthorization(client);
  const response = await client.post(TEST_SIGN_IN_PATH, {
    query: { id: user.id },
    headers: { accept: "application/json" },
  });
  if (response.status !== 200) throw await refused(`signIn(client, ${user.id})`, response);
  const answer = (await response.json()) as { token?: unknown };
  if (typeof answer.token === "string") client.headers.authorization = `Bearer ${answer.token}`;
}

/**
 * Signs the test client out: a web app's session ends through the app's own `signOut`, an API
 * client stops sending its token.
 *
 * @param client - the test client to sign out
 * @throws Error with the app's answer when it refuses the session's sign-out (not running with
 *   `GO_ENV=test`, or no `authentication()` in its middleware)
 * @example
 * await signOut(client);
 */
export async function signOut(client: TestClient): Promise<void> {
  const hadToken = Object.keys(client.headers).some(
    (name) => name.toLowerCase() === "authorization",
  );
  dropAuthorization(client);
  if (hadToken) return;
  const response = await client.post(TEST_SIGN_OUT_PATH, {
    headers: { accept: "application/json" },
  });
  if (response.status !== 200) throw await refused("signOut(client)", response);
}
