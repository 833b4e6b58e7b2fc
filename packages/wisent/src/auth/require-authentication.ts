import type { Context, MiddlewareHandler } from "hono";
import { marksAuthentication, requiresAuthentication } from "../app/route-guards.js";
import { HttpError } from "../base/http-error.js";
import { WisentError } from "../base/wisent-error.js";
import { negotiateFormat } from "../http/format.js";
import { resolveLocation } from "../http/redirect.js";
import { usesBearerTokens } from "./bearer-mark.js";
import { authenticationRan } from "./current-user.js";
import { rememberReturnPath } from "./return-path.js";

/** Options of {@link requireAuthentication}. */
export interface RequireAuthenticationOptions {
  /** Where HTML requests are sent to sign in: a route name or path; default `newSessionPath`. */
  readonly signInPath?: string;
}

/**
 * The 401 a JSON or XML request without a user gets; with `WWW-Authenticate: Bearer` when the app
 * takes bearer tokens (`bearer: true`), without a challenge when it has only cookie sessions
 * (no scheme a client could answer).
 * @param options - `bearer`: add the `WWW-Authenticate: Bearer` challenge (default true)
 * @returns an HttpError 401 (`E_HTTP`), to throw
 */
export function authenticationRequired(
  options: { bearer?: boolean } = { bearer: true },
): HttpError {
  return new HttpError(
    401,
    "authentication required: sign in first",
    options.bearer ? { headers: { "www-authenticate": 'Bearer realm="app"' } } : undefined,
  );
}

/** The sign-in page; this request's path (GET and HEAD only) kept in the session to come back to. */
function signInLocation(c: Context, signInPath: string): string {
  if (c.req.method === "GET" || c.req.method === "HEAD") {
    const url = new URL(c.req.url);
    rememberReturnPath(c, `${url.pathname}${url.search}`);
  }
  return resolveLocation(c, signInPath);
}

/**
 * Lets only signed-in users through: an HTML request without one is redirected (303) to the
 * sign-in page, its path kept in the session (`takeReturnPath` gives it to the sign-in action,
 * same origin only); a JSON or XML request gets 401. Needs `authentication()` (sessions) or
 * `tokenAuthentication()` (bearer tokens) declared before it. `app.resource(...)` takes
 * `{ authenticate: true }` (or a list of operations) to add it to a resource's routes.
 *
 * @param options - `signInPath`: where HTML requests go to sign in (default `newSessionPath`)
 * @returns the middleware
 * @throws HttpError 401 (`E_HTTP`), from the middleware, for a JSON or XML request without a
 *   user (with `WWW-Authenticate: Bearer` when the app takes tokens)
 * @throws WisentError `E_APP_MISCONFIGURED`, from the middleware, when neither
 *   `authentication()` nor `tokenAuthentication()` is before it
 * @example
 * const admin = app.group("/admin");
 * admin.use(requireAuthentication());
 * app.resource("/widgets", new WidgetsResource(), { authenticate: ["create", "update", "destroy"] });
 */
export function requireAuthentication(
  options: RequireAuthenticationOptions = {},
): MiddlewareHandler {
  const signInPath = options.signInPath ?? "newSessionPath";
  const guard: MiddlewareHandler = async (c, next) => {
    if (!authenticationRan(c)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        "requireAuthentication() needs authentication() (sessions) or tokenAuthentication() (bearer tokens) declared before it: wisent generate authentication adds it to src/app.ts",
      );
    }
    if (c.currentUser() !== undefined) return next();
    if (negotiateFormat(c) === "html" && c.get("session")) {
      c.header("Vary", "Accept");
      return c.redirect(signInLocation(c, signInPath), 303);
    }
    throw authenticationRequired({ bearer: usesBearerTokens(c) });
  };
  return marksAuthentication(guard);
}

export { requiresAuthentication };
