import type { Context } from "hono";

/**
 * The query parameter that carried where to go back to after signing in. The generated sign-in
 * no longer reads it (the return path is kept in the session, see {@link rememberReturnPath}).
 */
export const RETURN_TO_PARAM = "return_to";

/** Session key of the path to go back to after signing in. */
export const RETURN_TO_SESSION_KEY = "return_to";

const BASE = "http://return.invalid";

/**
 * `value` normalised (dot segments resolved) when it is a path on this site (`/widgets?page=2`),
 * else undefined. The check is made on the normalised form, the one a browser would follow:
 * it must start with exactly one `/`, followed by neither `/` nor `\` (`/.//evil.example`
 * normalises to `//evil.example`, a link to another host). Anything a browser could read as
 * another origin (`https://...`, `javascript:`, backslashes, which browsers read as slashes) or
 * that holds control characters (browsers drop tabs and newlines inside URLs) is refused, so a
 * return path is never an open redirect.
 *
 * @param value - a candidate path (anything: a query value, a session value)
 * @returns the normalised path, or undefined when it is no safe path on this site
 * @example
 * safeReturnPath("/widgets/1/edit"); // "/widgets/1/edit"
 * safeReturnPath("/a/../b"); // "/b"
 * safeReturnPath("/.//evil.example"); // undefined
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return undefined;
  if (!isOneSlashPath(value)) return undefined;
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (ch === "\\" || code < 0x20 || code === 0x7f) return undefined;
  }
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!isOneSlashPath(path)) return undefined;
  // Normalised once more, it must stay itself and on this site (no second reading differs).
  const again = new URL(path, BASE);
  if (again.origin !== BASE || `${again.pathname}${again.search}${again.hash}` !== path) {
    return undefined;
  }
  return path;
}

/** Starts with exactly one `/`, followed by neither `/` nor `\`. */
function isOneSlashPath(path: string): boolean {
  return path.startsWith("/") && path[1] !== "/" && path[1] !== "\\";
}

/**
 * Keeps `path` in the session as where to go after signing in (Rails 8's
 * `session[:return_to_after_authenticating]`, Laravel's `intended()`): `requireAuthentication()`
 * calls it when it sends a visitor to the sign-in page, so no query parameter can choose it.
 *
 * @param c - the request's context (nothing is kept without `session()`)
 * @param path - the path to come back to; one {@link safeReturnPath} refuses is not kept
 * @example
 * rememberReturnPath(c, "/widgets/1/edit");
 */
export function rememberReturnPath(c: Context, path: string): void {
  const safe = safeReturnPath(path);
  const session = c.get("session");
  if (safe !== undefined && session) session.set(RETURN_TO_SESSION_KEY, safe);
}

/**
 * The path {@link rememberReturnPath} kept, checked again, removed from the session; undefined
 * when there is none. Call it on a successful sign-in, before `signIn` renews the session.
 *
 * @param c - the request's context
 * @returns the kept path, still safe, or undefined
 * @example
 * const returnTo = takeReturnPath(c);
 * signIn(c, user);
 * return c.redirectTo(303, returnTo ?? "/");
 */
export function takeReturnPath(c: Context): `/${string}` | undefined {
  const session = c.get("session");
  if (!session) return undefined;
  const kept = session.get<string>(RETURN_TO_SESSION_KEY);
  if (kept === undefined) return undefined;
  session.delete(RETURN_TO_SESSION_KEY);
  return safeReturnPath(kept) as `/${string}` | undefined;
}
