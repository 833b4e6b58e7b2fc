import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
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
  const headers = nodeHeaders(c.env);
  if (headers) {
    const value = headers[name];
    if (value === undefined || typeof value === "string") return value;
    return value.join(", ");
  }
  return c.req.raw.headers.get(name) ?? undefined;
}

/**
 * The headers Node parsed, from the bindings Hono's Node adapter passes as the app's `env`;
 * undefined elsewhere (`app.fetch` in tests, other runtimes).
 */
export function nodeHeaders(env: unknown): IncomingHttpHeaders | undefined {
  return (env as { incoming?: IncomingMessage } | undefined)?.incoming?.headers;
}
