import type { ErrorHandler, Hono, NotFoundHandler } from "hono";
import { errorResponse } from "../http/error-response.js";

/**
 * The two things of Hono's that `App.fetch` needs and Hono keeps private, in one place (the
 * App calls routes it composed itself, so it must pass Hono's current not-found handler to the
 * Context and send what escapes a route to Hono's current error handler, as Hono's dispatch
 * does). `hono-internals.test.ts` fails loudly if a Hono upgrade changes either.
 */

/** Hono's error handler as it is at the time (`hono.onError` replaces it), as a function. */
export function honoErrorHandler(hono: Hono): ErrorHandler {
  // Hono 4 keeps it in the instance field `errorHandler` (set by `onError`).
  const holder = hono as unknown as { errorHandler?: ErrorHandler };
  return (err, c) => (holder.errorHandler ?? errorResponse)(err, c);
}

/**
 * Calls `onChange` with every handler given to `hono.notFound` from now on (Hono 4 keeps it in
 * a private field): the public method is wrapped, so the watcher always knows the current one.
 */
export function watchNotFound(hono: Hono, onChange: (handler: NotFoundHandler) => void): void {
  const setNotFound = hono.notFound;
  hono.notFound = (handler) => {
    onChange(handler);
    return setNotFound(handler);
  };
}
