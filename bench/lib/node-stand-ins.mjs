/**
 * A request served the way `app.listen()` serves it, without a socket: @hono/node-server's
 * request listener called with stand-ins for Node's IncomingMessage (a GET with wrk's headers)
 * and ServerResponse (records what the adapter writes). For in-process benches of the whole
 * request path (bench/http/api-server-path.mjs, bench/http/logger.mjs).
 */

/** A stand-in ServerResponse: records status, headers and body; `onEnd(response)` on end(). */
export function outgoingFor(onEnd) {
  return {
    _contentLength: null,
    _hasBody: true,
    useChunkedEncodingByDefault: true,
    _removedContLen: false,
    writable: true,
    writableFinished: false,
    headersSent: false,
    status: 0,
    headers: undefined,
    hasHeader: () => false,
    on() {
      return this;
    },
    once() {
      return this;
    },
    writeHead(status, headers) {
      this.status = status;
      this.headers = headers;
      this.headersSent = true;
      return this;
    },
    write() {
      return true;
    },
    end(body) {
      this.body = body;
      this.writableFinished = true;
      onEnd(this);
    },
  };
}

const ACCEPT = "application/json";

/** A stand-in IncomingMessage: a GET of `url` asking for JSON, its body already read. */
export function incomingFor(url) {
  return {
    method: "GET",
    url,
    headers: { host: "127.0.0.1:3000", accept: ACCEPT, "user-agent": "wrk" },
    rawHeaders: ["Host", "127.0.0.1:3000", "Accept", ACCEPT, "User-Agent", "wrk"],
    socket: { encrypted: false, remoteAddress: "127.0.0.1" },
    readableEnded: true,
  };
}

/** One GET of `url` through `listener`; resolves with the stand-in response once ended. */
export function serve(listener, url) {
  return new Promise((resolve) => listener(incomingFor(url), outgoingFor(resolve)));
}
