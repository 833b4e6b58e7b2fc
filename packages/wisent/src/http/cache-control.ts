/**
 * Cache-Control of dynamic answers (docs/security.md): `private, no-cache` by default (no
 * shared cache keeps them, the browser revalidates), `no-store` on answers that carry a session
 * cookie or a CSRF token, whatever a route sets itself kept as it is. Static files keep their
 * long-lived `max-age`.
 * @module
 */
import type { Context } from "hono";
import { addPlainField, plainFieldOf } from "../kernel/plain-response.js";
import { editResponseHeaders } from "../kernel/response-headers.js";

/** The default of every dynamic answer (`securityHeaders()` sends it). */
export const DEFAULT_CACHE_CONTROL = "private, no-cache";
/** Answers that carry a session cookie or a CSRF token. */
export const NO_STORE = "no-store";

/**
 * Marks the current response `no-store` unless the route chose its own Cache-Control (anything
 * but the default): for answers that set the session cookie or carry a CSRF token.
 */
export function preferNoStore(c: Context): void {
  // A plain answer of c.respond keeps its plain headers (no Headers built, no copy).
  const plain = plainFieldOf(c.res, "cache-control");
  if (plain !== undefined) {
    const { value } = plain;
    if (value === NO_STORE || (value !== undefined && value !== DEFAULT_CACHE_CONTROL)) return;
    addPlainField(c.res, "cache-control", NO_STORE, true);
    return;
  }
  const current = c.res.headers.get("cache-control");
  if (current === NO_STORE || (current !== null && current !== DEFAULT_CACHE_CONTROL)) return;
  editResponseHeaders(c, (headers) => headers.set("cache-control", NO_STORE));
}

/** Sets the default on a response that has no Cache-Control at all. */
export function defaultCacheControl(c: Context, value: string): void {
  if (c.res.headers.has("cache-control")) return;
  editResponseHeaders(c, (headers) => headers.set("cache-control", value));
}
