import type { IncomingMessage } from "node:http";
import { FULL_HEADERS_KEY, HEADERS_INCOMING_KEY } from "../base/symbols.js";

/**
 * Headers Node joins or keeps once in `incoming.headers` in ways the Fetch `Headers` would not
 * (it keeps the first of a duplicated `content-type`, lists `set-cookie`): read from the raw list.
 */
const NOT_JOINED = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "set-cookie",
  "user-agent",
]);

/** Full Fetch `Headers` from Node's raw list (a header the Fetch rules refuse is left out). */
export function fetchHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {}
  }
  return headers;
}

const INCOMING: typeof HEADERS_INCOMING_KEY = HEADERS_INCOMING_KEY;
const FULL: typeof FULL_HEADERS_KEY = FULL_HEADERS_KEY;

interface Light {
  [INCOMING]: IncomingMessage;
  [FULL]: Headers | undefined;
}

function full(headers: Light): Headers {
  let made = headers[FULL];
  if (!made) {
    made = fetchHeaders(headers[INCOMING]);
    headers[FULL] = made;
  }
  return made;
}

/** A value Node parsed, as the Fetch Headers would give it, or undefined when only they can say. */
function quick(incoming: IncomingMessage, name: string): string | null | undefined {
  if (NOT_JOINED.has(name) || name === "__proto__") return undefined;
  const value = incoming.headers[name];
  if (value === undefined) return Object.hasOwn(incoming.headers, name) ? undefined : null;
  if (typeof value !== "string" || /[\0\r\n]/.test(value)) return undefined;
  return value.trim();
}

const prototype = {
  get(this: Light, name: string): string | null {
    if (this[FULL] === undefined) {
      const value = quick(this[INCOMING], String(name).toLowerCase());
      if (value !== undefined) return value;
    }
    return full(this).get(name);
  },
  has(this: Light, name: string): boolean {
    if (this[FULL] === undefined) {
      const value = quick(this[INCOMING], String(name).toLowerCase());
      if (value !== undefined) return value !== null;
    }
    return full(this).has(name);
  },
  forEach(
    this: Light,
    callback: (value: string, key: string, parent: Headers) => void,
    thisArg?: unknown,
  ): void {
    full(this).forEach((value, key) => {
      callback.call(thisArg, value, key, this as never);
    });
  },
  [Symbol.iterator](this: Light) {
    return full(this).entries();
  },
};
for (const name of ["append", "delete", "set", "getSetCookie", "keys", "values", "entries"]) {
  Object.defineProperty(prototype, name, {
    value(this: Light, ...args: unknown[]) {
      const headers = full(this) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return headers[name]!.apply(headers, args);
    },
  });
}

/**
 * The request headers of `incoming` as a Fetch `Headers` (`instanceof Headers` holds) that reads
 * single values from what Node parsed and builds the real `Headers` only to list them all (a
 * dozen validated appends saved per request that only asks for a few; bench/load JSON show).
 *
 * @example nodeRequestHeaders(incoming).get("accept")
 */
export function nodeRequestHeaders(incoming: IncomingMessage): Headers {
  // Chained on first use, not when this module loads: reading the global Headers loads Node's
  // Fetch implementation (undici), which a command that loads the app and serves nothing
  // (`wisent routes`) does not need.
  if (Object.getPrototypeOf(prototype) !== Headers.prototype) {
    Object.setPrototypeOf(prototype, Headers.prototype);
  }
  const headers = Object.create(prototype) as Light;
  headers[INCOMING] = incoming;
  headers[FULL] = undefined;
  return headers as unknown as Headers;
}
