import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * One request header (name in lower case). On Node it is read from the headers Node has already
 * parsed: the Fetch `Request` that Hono's Node adapter hands over builds its `Headers` object
 * only when asked, and building it (every header validated and copied) costs more than most
 * middleware. Elsewhere (`app.fetch` in tests, other runtimes) it is the Request's own header.
 *
 * @example
 * const accept = requestHeader(c, "accept");
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.headers) {
    const value = incoming.headers[name];
    if (value === undefined || typeof value === "string") return value;
    return value.join(", ");
  }
  return c.req.raw.headers.get(name) ?? undefined;
}
