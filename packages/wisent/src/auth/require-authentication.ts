import type { Context, MiddlewareHandler } from "hono";
import { negotiateFormat } from "../http/format.js";
import { HttpError } from "../http/http-error.js";
import { resolveLocation } from "../http/redirect.js";
import { authenticationRan } from "./current-user.js";
import { RETURN_TO_PARAM, safeReturnPath } from "./return-path.js";

/** Options of {@link requireAuthentication}. */
export interface RequireAuthenticationOptions {
  /** Where HTML requests are sent to sign in: a route name or path; default `newSessionPath`. */
  readonly signInPath?: string;
}

/** The 401 a JSON or XML request without a user gets (with `WWW-Authenticate: Bearer`). */
export function authenticationRequired(): HttpError {
  return new HttpError(401, "authentication required: sign in first", {
    headers: { "www-authenticate": 'Bearer realm="app"' },
  });
}

/** The sign-in page, with this request's path to come back to (GET and HEAD only). */
function signInLocation(c: Context, signInPath: string): string {
  const location = resolveLocation(c, signInPath);
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return location;
  const url = new URL(c.req.url);
  const back = safeReturnPath(`${url.pathname}${url.search}`);
  if (!back) return location;
  return `${location}${location.includes("?") ? "&" : "?"}${RETURN_TO_PARAM}=${encodeURIComponent(back)}`;
}

/**
 * Lets only signed-in users through: an HTML request without one is redirected (303) to the
 * sign-in page with its path as `return_to` (the sign-in action goes back there, same origin
 * only); a JSON or XML request gets 401. Needs `authentication()` (sessions) or
 * `tokenAuthentication()` (bearer tokens) declared before it. `app.resource(...)` takes
 * `{ authenticate: true }` (or a list of operations) to add it to a resource's routes.
 *
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
      throw new Error(
        "requireAuthentication() needs authentication() (sessions) or tokenAuthentication() (bearer tokens) declared before it: wisent generate authentication adds it to src/app.ts",
      );
    }
    if (c.currentUser() !== undefined) return next();
    if (negotiateFormat(c) === "html" && c.get("session")) {
      c.header("Vary", "Accept");
      return c.redirect(signInLocation(c, signInPath), 303);
    }
    throw authenticationRequired();
  };
  GUARDS.add(guard);
  return guard;
}

const GUARDS = new WeakSet<MiddlewareHandler>();

/** Whether a route's middleware includes {@link requireAuthentication} (OpenAPI marks it secured). */
export function requiresAuthentication(middleware: readonly MiddlewareHandler[]): boolean {
  return middleware.some((m) => GUARDS.has(m));
}
