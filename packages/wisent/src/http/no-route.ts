import type { Context } from "hono";
import { HttpError } from "../base/http-error.js";
import { NO_ROUTE_KEY } from "../base/symbols.js";

/**
 * The 404 of a request no route matched (not a handler's own 404, such as a missing record):
 * development answers it with the page listing the app's routes.
 */
export class NoRouteError extends HttpError {
  constructor(message: string) {
    super(404, message, { code: "E_ROUTE_NOT_FOUND" });
  }
}

/**
 * Requests no route matched (404 and 405 answers, and a POST refused before routing) still go
 * through the App's own middleware (`app.use`), so they carry the security headers and a request
 * id and are logged like any other. Under a symbol property, as the response-header parts are:
 * a request that matched a route never carries it.
 */
const NO_ROUTE: typeof NO_ROUTE_KEY = NO_ROUTE_KEY;

type Marked = Context & { [NO_ROUTE]?: Error };

/** @internal Marks the request as matched by no route; `answer` is the error it will get. */
export function markNoRoute(c: Context, answer: Error): void {
  (c as Marked)[NO_ROUTE] = answer;
}

/** @internal The error a request no route matched is answered with (see {@link markNoRoute}). */
export function noRouteAnswer(c: Context): Error | undefined {
  return (c as Marked)[NO_ROUTE];
}

/**
 * True when the request matched no route and is on its way to a 404 or 405 (or an error found
 * before routing, such as a bad `_method`). Middleware that guards actions consults it: with no
 * action to protect there is nothing to refuse, and the client should learn that the route does
 * not exist (Rails answers an unknown POST with its routing error, not a CSRF failure). `csrf()`
 * skips its token and origin checks for such requests. A GET that falls into `serveFiles`'s
 * catch-all did match a route (the catch-all), so this stays false there.
 *
 * @param c - the request's context
 * @returns true while the App answers a request no route matched (its 404 or 405)
 * @example
 * app.use(async (c, next) => {
 *   if (!noRouteMatched(c) && !c.get("session").get("user_id")) return c.redirect("/login");
 *   await next();
 * });
 */
export function noRouteMatched(c: Context): boolean {
  return (c as Marked)[NO_ROUTE] !== undefined;
}
