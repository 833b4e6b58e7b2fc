import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import {
  ABORT_KEY,
  HEADERS_KEY,
  REAL_REQUEST_KEY,
  REQUEST_BODY_KEY,
  REQUEST_INCOMING_KEY,
  REQUEST_URL_KEY,
} from "../base/symbols.js";
import { nodeRequestHeaders } from "./node-headers.js";

/**
 * A Fetch `Request` for a Node request, made lazily: method, url and headers are read from what
 * Node parsed, and the real `Request` (its `Headers`, a web stream over the body) is built only
 * when something asks for the body, a clone or another property only a real one has. A JSON show
 * never builds it (the listener's bench, bench/load: a `Request` and its `Headers` cost several
 * microseconds a request). `instanceof Request` holds.
 */
interface LazyRequest extends Request {
  [INCOMING]: IncomingMessage;
  [URL_KEY]: string;
  [HEADERS]: Headers | undefined;
  [REAL]: Request | undefined;
  [ABORT]: AbortController | undefined;
  /** The body, once read straight from the Node request (see readBody). */
  [BUFFER]: Promise<Buffer> | undefined;
}

const INCOMING: typeof REQUEST_INCOMING_KEY = REQUEST_INCOMING_KEY;
const URL_KEY: typeof REQUEST_URL_KEY = REQUEST_URL_KEY;
const HEADERS: typeof HEADERS_KEY = HEADERS_KEY;
const REAL: typeof REAL_REQUEST_KEY = REAL_REQUEST_KEY;
const ABORT: typeof ABORT_KEY = ABORT_KEY;
const BUFFER: typeof REQUEST_BODY_KEY = REQUEST_BODY_KEY;

/** Methods the Fetch `Request` refuses a body for, or refuses outright (TRACE). */
const NO_BODY = new Set(["GET", "HEAD", "TRACE"]);

function controllerOf(req: LazyRequest): AbortController {
  let controller = req[ABORT];
  if (!controller) {
    const made = new AbortController();
    controller = made;
    req[ABORT] = made;
    const incoming = req[INCOMING];
    // The client went away before the answer was written.
    incoming.once("close", () => {
      if (!incoming.complete || !incoming.socket?.writable) made.abort();
    });
  }
  return controller;
}

/** The body for the real Request: what was read already, else a web stream over the Node request. */
function bodyOf(req: LazyRequest): BodyInit {
  const read = req[BUFFER];
  if (read === undefined) return Readable.toWeb(req[INCOMING]) as ReadableStream<Uint8Array>;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(await read));
      controller.close();
    },
  });
}

/**
 * The body read straight from the Node request (no web stream: a JSON create's `c.req.json()`
 * costs a fraction of the Request's stream path; bench/load JSON create). Once only, as Fetch.
 */
function readBody(req: LazyRequest): Promise<Buffer> {
  if (req[BUFFER] !== undefined) {
    // A TypeError with fetch's own words: code written for Request (and Hono) expects exactly it.
    return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
  }
  const real = req[REAL];
  if (real !== undefined) return real.arrayBuffer().then((bytes) => Buffer.from(bytes));
  const incoming = req[INCOMING];
  const read = new Promise<Buffer>((resolve, reject) => {
    if (NO_BODY.has(incoming.method ?? "GET") || incoming.readableEnded) {
      resolve(Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.once("error", reject);
    incoming.once("close", () => {
      // The client left: nobody is there to answer, and the request ends without a response.
      if (!incoming.complete) reject(new Error("the client closed the connection mid-body"));
    });
  });
  req[BUFFER] = read;
  return read;
}

const decoder = new TextDecoder();

/** The real Request, built on first need (the body as a web stream over the Node request). */
function realOf(req: LazyRequest): Request {
  let real = req[REAL];
  if (!real) {
    const incoming = req[INCOMING];
    const method = incoming.method ?? "GET";
    const withBody = !NO_BODY.has(method);
    real = new Request(req[URL_KEY], {
      // TRACE is a forbidden method for the Fetch Request; its own getter still says TRACE.
      method: method === "TRACE" ? "GET" : method,
      headers: req.headers,
      signal: controllerOf(req).signal,
      ...(withBody ? { body: bodyOf(req), duplex: "half" } : {}),
    } as RequestInit);
    req[REAL] = real;
  }
  return real;
}

const prototype = {
  get method(): string {
    return (this as unknown as LazyRequest)[INCOMING].method ?? "GET";
  },
  get url(): string {
    return (this as unknown as LazyRequest)[URL_KEY];
  },
  get headers(): Headers {
    const req = this as unknown as LazyRequest;
    let headers = req[HEADERS];
    if (!headers) {
      headers = nodeRequestHeaders(req[INCOMING]);
      req[HEADERS] = headers;
    }
    return headers;
  },
  get signal(): AbortSignal {
    return controllerOf(this as unknown as LazyRequest).signal;
  },
  get bodyUsed(): boolean {
    const req = this as unknown as LazyRequest;
    return req[BUFFER] !== undefined || (req[REAL]?.bodyUsed ?? false);
  },
  text(): Promise<string> {
    return readBody(this as unknown as LazyRequest).then((buffer) => decoder.decode(buffer));
  },
  json(): Promise<unknown> {
    return (this as LazyRequestLike).text().then(JSON.parse);
  },
  arrayBuffer(): Promise<ArrayBuffer> {
    return readBody(this as unknown as LazyRequest).then(
      (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer,
    );
  },
  bytes(): Promise<Uint8Array> {
    return readBody(this as unknown as LazyRequest).then((b) => new Uint8Array(b));
  },
};

type LazyRequestLike = { text(): Promise<string> };
for (const name of [
  "body",
  "cache",
  "credentials",
  "destination",
  "duplex",
  "integrity",
  "keepalive",
  "mode",
  "redirect",
  "referrer",
  "referrerPolicy",
]) {
  Object.defineProperty(prototype, name, {
    get(this: LazyRequest) {
      return (realOf(this) as unknown as Record<string, unknown>)[name];
    },
  });
}
for (const name of ["blob", "clone", "formData"]) {
  Object.defineProperty(prototype, name, {
    value(this: LazyRequest) {
      const real = realOf(this) as unknown as Record<string, () => unknown>;
      return real[name]!.call(real);
    },
  });
}
Object.defineProperty(prototype, Symbol.for("nodejs.util.inspect.custom"), {
  value(this: LazyRequest) {
    return `Request (lazy) ${this.method} ${this.url}`;
  },
});

/**
 * The lazy Request for `incoming`, whose full URL (`http://host/path?query`) the caller has
 * worked out and validated (see `requestUrl`).
 *
 * @example
 * const request = lazyRequest(incoming, "http://127.0.0.1:3000/widgets/1");
 * request.method; // "GET", from Node, no Request built
 */
export function lazyRequest(incoming: IncomingMessage, url: string): Request {
  // Chained to the global Request of the time (Hono's Node adapter replaces it), so that
  // `instanceof Request` holds whichever it is.
  if (Object.getPrototypeOf(prototype) !== Request.prototype) {
    Object.setPrototypeOf(prototype, Request.prototype);
  }
  const req = Object.create(prototype) as LazyRequest;
  req[INCOMING] = incoming;
  req[URL_KEY] = url;
  return req;
}

/** The same request under another URL (the App strips a format extension before routing). */
export function withUrl(request: Request, url: string): Request | undefined {
  const incoming = (request as Partial<LazyRequest>)[INCOMING];
  if (incoming === undefined || (request as LazyRequest)[REAL] !== undefined) return undefined;
  return lazyRequest(incoming, url);
}

/** Whether `request` is a lazy one whose real Request was built (for tests and benches). */
export function realRequestBuilt(request: Request): boolean {
  return (request as Partial<LazyRequest>)[REAL] !== undefined;
}

/** Path characters that need no normalising (no dot segments checked here: see SIMPLE_PATH). */
const SIMPLE_TARGET = /^\/[!#$&-;=?-[\]_a-z~A-Z]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
const SIMPLE_HOST = /^[a-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The absolute URL of a request target, or undefined when it is not one a URL can hold. The
 * usual `/path?query` with a plain host is joined as it is; anything else (dot segments,
 * non-ASCII, an upper-case host, an absolute-form target) is checked with `URL.canParse` and
 * normalised by the WHATWG parser, as a Fetch Request would.
 *
 * @example requestUrl("127.0.0.1:3000", "/widgets/1", "http") // "http://127.0.0.1:3000/widgets/1"
 */
export function requestUrl(host: string, target: string, scheme: string): string | undefined {
  if (target.charCodeAt(0) !== 47) {
    // Absolute form (`GET http://host/path`); `*` and authority forms are not for routes.
    if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return undefined;
    return new URL(target).href;
  }
  const url = `${scheme}://${host}${target}`;
  if (SIMPLE_HOST.test(host) && SIMPLE_TARGET.test(target) && !DOT_SEGMENT.test(target)) {
    return url;
  }
  const queryAt = target.indexOf("?");
  if (target.lastIndexOf("\\", queryAt === -1 ? target.length : queryAt) !== -1) return undefined;
  return URL.canParse(url) ? new URL(url).href : undefined;
}
