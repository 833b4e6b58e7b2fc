import type { IncomingMessage, ServerResponse } from "node:http";
import { nodeResponseWriter } from "./hono-internals.js";
import { lazyRequest, requestUrl } from "./node-request.js";
import { writePlainResponse } from "./plain-response.js";

export { loadNodeAdapter } from "./hono-internals.js";

const BAD_TARGET = "the request target is not a valid URL path\n";

/** The 400 for a target no URL can be made of (as the request guard words its refusals). */
function badTarget(outgoing: ServerResponse): void {
  outgoing.writeHead(400, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(BAD_TARGET),
    "X-Content-Type-Options": "nosniff",
  });
  outgoing.end(BAD_TARGET);
}

/** The bindings a Node request's handler gets as Hono's `env` (as Hono's Node adapter passes them). */
export interface NodeBindings {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
}

/** What the listener serves: the App's fetch, called with a lazy Request and the Node bindings. */
export type NodeFetch = (request: Request, env: NodeBindings) => Response | Promise<Response>;

/**
 * Wisent's Node request listener: from `IncomingMessage` to the App's fetch and back without
 * Hono's Node adapter on the way. The Request is lazy (see `lazyRequest`: no `Headers` or body
 * stream unless asked), a synchronous answer is written in the same turn, and an answer made by
 * `c.respond` (see `plainResponse`) is written with one `writeHead` from its plain header object.
 * Any other Response (a stream, Hono's own builders, a handler's `new Response`) is written by
 * Hono's Node adapter, whose writer handles every body kind. Saves the adapter's promise path
 * (a `close` listener, two async functions, two turns a request; bench/load JSON show).
 *
 * Hono's Node adapter must be loaded first ({@link loadNodeAdapter}).
 *
 * @example
 * await loadNodeAdapter();
 * const server = http.createServer(nodeListener(app.fetch, "127.0.0.1"));
 */
export function nodeListener(
  fetch: NodeFetch,
  hostname: string,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const writeOther = nodeResponseWriter(hostname);
  const send = (res: Response, incoming: IncomingMessage, outgoing: ServerResponse) => {
    try {
      if (!writePlainResponse(res, outgoing)) writeOther(res, incoming, outgoing);
    } catch (error) {
      fail(error, outgoing);
    }
  };
  const fail = (error: unknown, outgoing: ServerResponse) => {
    console.error(error);
    if (outgoing.headersSent) {
      outgoing.destroy();
      return;
    }
    outgoing.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    outgoing.end("Internal Server Error\n");
  };
  return (incoming, outgoing) => {
    const scheme = (incoming.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
    const url = requestUrl(incoming.headers.host ?? hostname, incoming.url ?? "/", scheme);
    if (url === undefined) {
      badTarget(outgoing);
      return;
    }
    let res: Response | Promise<Response>;
    try {
      res = fetch(lazyRequest(incoming, url), { incoming, outgoing });
    } catch (error) {
      fail(error, outgoing);
      return;
    }
    if (res instanceof Promise) {
      res.then(
        (resolved) => send(resolved, incoming, outgoing),
        (error: unknown) => fail(error, outgoing),
      );
    } else {
      send(res, incoming, outgoing);
    }
  };
}
