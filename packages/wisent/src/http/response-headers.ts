import type { Context } from "hono";

/**
 * Headers Wisent's middleware puts on every response (security headers, the request id), kept
 * as plain objects. When `c.respond` makes the Response itself it hands them over in one plain
 * object with the content type, which Hono's Node adapter writes as it is. A `Headers` object
 * costs about 8 us for a dozen headers (every `set` is validated, iteration sorts), more than
 * the rest of a JSON show. Responses made any other way (redirects, errors, Hono's `c.json`
 * after `c.header`, a handler's own Response) get them in the middleware's after-step instead.
 */

const PARTS = Symbol("wisent.responseHeaderParts");
const TOUCHED = Symbol("wisent.honoHeadersTouched");
const HONO_HEADER = Symbol("wisent.honoHeader");

type Part = Readonly<Record<string, string>>;
type Tracked = Context & {
  [PARTS]?: Part[];
  [TOUCHED]?: boolean;
  [HONO_HEADER]?: Context["header"];
};

// Marks responses that already carry every part (made by `plainResponseHeaders`' caller): a
// property, not a WeakSet entry per request (ephemerons cost the garbage collector under load).
const COMPLETE = Symbol("wisent.responseHeadersComplete");

/** Adds headers (lower-case names) for this request's response; call before the handler runs. */
export function addResponseHeaders(c: Context, part: Part): void {
  const tracked = c as Tracked;
  const parts = tracked[PARTS];
  if (parts) parts.push(part);
  else tracked[PARTS] = [part];
}

function trackedHeader(this: Tracked, ...args: Parameters<Context["header"]>): void {
  this[TOUCHED] = true;
  this[HONO_HEADER]!(...args);
}

/**
 * Notes when the request sets headers through Hono (`c.header`, `setCookie`): Hono keeps those
 * where only its own response builders see them, so `c.respond` must then let Hono build.
 */
export function trackHonoHeaders(c: Context): void {
  const tracked = c as Tracked;
  if (tracked[HONO_HEADER]) return;
  tracked[HONO_HEADER] = c.header;
  tracked.header = trackedHeader as Context["header"];
}

/**
 * Whether Wisent may still make this request's response with plain headers: false once headers
 * were set through Hono (which keeps them where only its own builders see them), or once the
 * request has answered.
 */
export function answersPlain(c: Context): boolean {
  const tracked = c as Tracked;
  return !tracked[TOUCHED] && tracked[HONO_HEADER] !== undefined && !c.finalized;
}

/**
 * The plain headers for a response Wisent is about to make (the content type, every part, then
 * `extra`, names in any case), or undefined when Hono must build it (headers were set through
 * Hono, or it already answered). Pass the made Response to {@link markComplete}.
 */
export function plainResponseHeaders(
  c: Context,
  contentType: string,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  if (!answersPlain(c)) return undefined;
  const tracked = c as Tracked;
  const headers: Record<string, string> = { "content-type": contentType };
  const parts = tracked[PARTS];
  if (parts) for (const part of parts) Object.assign(headers, part);
  if (extra) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
  return headers;
}

/** Records that `res` was made with every part, so after-steps leave it alone. */
export function markComplete(res: Response): Response {
  (res as Response & { [COMPLETE]?: true })[COMPLETE] = true;
  return res;
}

/** Whether the current response already carries every part. */
export function hasAllResponseHeaders(c: Context): boolean {
  return (c.res as Response & { [COMPLETE]?: true })[COMPLETE] === true;
}

/**
 * Changes the headers of a response Wisent did not make with every part (a redirect, an error
 * page, a handler's own Response): a handler's own `Response.redirect` has immutable headers,
 * so the response is copied first (Hono's `c.res` setter makes the copy) when they refuse.
 *
 * @example
 * editResponseHeaders(c, (headers) => headers.set("x-request-id", id));
 */
export function editResponseHeaders(c: Context, edit: (headers: Headers) => void): void {
  try {
    edit(c.res.headers);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    c.res = new Response(c.res.body, c.res);
    edit(c.res.headers);
  }
}
