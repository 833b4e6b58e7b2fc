import type { IncomingMessage, ServerResponse } from "node:http";
import { Context, type ErrorHandler, type Hono, type NotFoundHandler } from "hono";

/**
 * Everything of Hono's that Wisent's kernel needs and Hono keeps private, in one place (the
 * App calls routes it composed itself, so it makes the Context as Hono's dispatch makes it,
 * passes Hono's current not-found handler to it and sends what escapes a route to Hono's current
 * error handler). `hono-internals.test.ts` fails loudly if a Hono upgrade changes any of it;
 * package.json pins `hono` to the minor version these tests passed on.
 */

/** What Hono's dispatch gives a Context it makes (Hono's `ContextOptions`, not exported). */
export interface ContextParts {
  readonly path: string;
  readonly env: unknown;
  readonly executionCtx?: unknown;
  readonly matchResult?: unknown;
  readonly notFoundHandler?: NotFoundHandler;
}

/** A Context made as Hono 4's dispatch makes one (its constructor's second argument). */
export function newContext(request: Request, parts: ContextParts): Context {
  return new Context(request, parts as ConstructorParameters<typeof Context>[1]);
}

let adapter: typeof import("@hono/node-server") | undefined;

/**
 * Loads Hono's Node adapter, once, before a server serves: importing it also puts its lighter
 * `Request` and `Response` in place of Node's globals (a plain answer made from its `Response`
 * costs about 30 us less than one made from Node's own: bench/load/ab.mjs, JSON show). Not at
 * import time: the adapter reads the global `Request`, which loads Node's Fetch implementation
 * (undici), and the commands that load an app without serving it (`wisent routes`, `openapi`,
 * `console`) need neither.
 */
export async function loadNodeAdapter(): Promise<void> {
  adapter ??= await import("@hono/node-server");
}

/**
 * Writes any Response (a stream, Hono's own builders, a handler's `new Response`) to Node with
 * Hono's Node adapter ({@link loadNodeAdapter} first), whose writer handles every body kind. The
 * adapter wants a fetch function, not a Response: it is given one that hands back the response
 * being written, which relies on the adapter calling it synchronously, inside `write`
 * (@hono/node-server 1.x and 2.x do; the test fails if one stops).
 */
export function nodeResponseWriter(
  hostname: string,
): (res: Response, incoming: IncomingMessage, outgoing: ServerResponse) => void {
  // Internal: the App loads the adapter before it serves; no app calls this.
  if (adapter === undefined) throw new Error("nodeResponseWriter: call loadNodeAdapter() first");
  let handing: Response | undefined;
  const handOver = () => handing ?? new Response(null, { status: 500 });
  const writer = adapter.getRequestListener(handOver, {
    hostname,
    autoCleanupIncoming: false,
    errorHandler: handOver,
  });
  return (res, incoming, outgoing) => {
    handing = res;
    try {
      void writer(incoming, outgoing);
    } finally {
      handing = undefined;
    }
  };
}

/**
 * Hono's error handler as it is at the time (`hono.onError` replaces it), as a function;
 * `fallback` until one is set.
 */
export function honoErrorHandler(hono: Hono, fallback: ErrorHandler): ErrorHandler {
  // Hono 4 keeps it in the instance field `errorHandler` (set by `onError`).
  const holder = hono as unknown as { errorHandler?: ErrorHandler };
  return (err, c) => (holder.errorHandler ?? fallback)(err, c);
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
