/**
 * Cache-Control of dynamic answers (docs/security.md): `private, no-cache` by default (no
 * shared cache keeps them, the browser revalidates), `no-store` on answers that carry a session
 * cookie or a CSRF token, whatever a route sets itself kept as it is. Static files keep their
 * long-lived `max-age`.
 * @module
 */
import type { Context } from "hono";
import { headerPart, setHeaders } from "../kernel/response-headers.js";

/** The default of every dynamic answer (`securityHeaders()` sends it). */
export const DEFAULT_CACHE_CONTROL = "private, no-cache";
/** Answers that carry a session cookie or a CSRF token. */
export const NO_STORE = "no-store";

/** `no-store`, over nothing or the default only: a Cache-Control the route chose stays. */
const NO_STORE_PART = headerPart(
  { "cache-control": NO_STORE },
  { keep: (_, current) => current !== DEFAULT_CACHE_CONTROL },
);

/**
 * Marks the response `no-store` unless the route chose its own Cache-Control (anything but the
 * default): for answers that set the session cookie or carry a CSRF token.
 */
export function preferNoStore(c: Context): void {
  setHeaders(c, NO_STORE_PART);
}

/** Sets the default on a response that has no Cache-Control at all. */
export function defaultCacheControl(c: Context, value: string): void {
  setHeaders(c, headerPart({ "cache-control": value }, { keep: () => true }));
}
