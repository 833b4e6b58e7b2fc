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

/** Writes a Response to Node; a promise while the adapter is still being loaded. */
export type ResponseWriter = (
  res: Response,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
) => void | Promise<void>;

/**
 * Writes any Response (a stream, Hono's own builders, a handler's `new Response`) to Node with
 * Hono's Node adapter, whose writer handles every body kind. The adapter wants a fetch function,
 * not a Response: it is given one that hands back the response being written, which relies on
 * the adapter calling it synchronously, inside `write` (@hono/node-server 1.x and 2.x do; the
 * test fails if one stops).
 *
 * The adapter is imported on the first such Response, not at start: importing it loads
 * `node:http2` with TLS and, through its `global.Request` subclass, the Fetch implementation,
 * which a start whose first answers are plain never needs (bench/load/cold-start-phases.mjs).
 * Until it has loaded, `write` returns a promise that settles once the answer is handed over.
 */
export function nodeResponseWriter(hostname: string): ResponseWriter {
  let write: ResponseWriter | undefined;
  let loading: Promise<ResponseWriter> | undefined;
  const load = async (): Promise<ResponseWriter> => {
    const { getRequestListener } = await import("@hono/node-server");
    let handing: Response | undefined;
    const handOver = () => handing ?? new Response(null, { status: 500 });
    const writer = getRequestListener(handOver, {
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
  };
  return (res, incoming, outgoing) => {
    if (write) return write(res, incoming, outgoing);
    loading ??= load().then((loaded) => (write = loaded));
    return loading.then((loaded) => loaded(res, incoming, outgoing));
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
