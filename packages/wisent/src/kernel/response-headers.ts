import type { Context } from "hono";
import { addPlainField } from "./plain-response.js";

/**
 * Headers Wisent's middleware puts on every response (security headers, the request id), kept
 * as plain objects. When `c.respond` makes the Response itself it hands them over in one plain
 * object with the content type, which Hono's Node adapter writes as it is. A `Headers` object
 * costs about 8 us for a dozen headers (every `set` is validated, iteration sorts), more than
 * the rest of a JSON show. Responses made any other way (redirects, errors, Hono's `c.json`
 * after `c.header`, a handler's own Response) get them in the middleware's after-step instead.
 */

type Part = Readonly<Record<string, string>>;

/**
 * What one request keeps about its response headers, in one object (one property on the
 * context, no array for the usual two parts, no mark on the response): made by the first of
 * {@link trackHonoHeaders} and {@link addResponseHeaders}.
 */
interface HeaderState {
  /** Hono's own `c.header`, once tracking is on (see trackHonoHeaders). */
  honoHeader: Context["header"] | undefined;
  /** Headers were set through Hono. */
  touched: boolean;
  /** The parts, in order: the first two in fields, any more in `more`. */
  first: Part | undefined;
  second: Part | undefined;
  more: Part[] | undefined;
  /** The response made with every part (see markComplete). */
  complete: Response | undefined;
}

const STATE = Symbol("wisent.responseHeaders");
type Tracked = Context & { [STATE]?: HeaderState };

function stateOf(c: Context): HeaderState {
  const tracked = c as Tracked;
  let state = tracked[STATE];
  if (!state) {
    state = {
      honoHeader: undefined,
      touched: false,
      first: undefined,
      second: undefined,
      more: undefined,
      complete: undefined,
    };
    tracked[STATE] = state;
  }
  return state;
}

const DATA_PART = Symbol("wisent.dataPart");

/**
 * `part` (frozen) with `data`, the headers it stands for on a JSON or XML answer (see
 * `plainResponseHeaders`): made once, by middleware whose headers are fixed.
 */
export function withDataPart(
  part: Record<string, string>,
  data: Record<string, string>,
): Readonly<Record<string, string>> {
  Object.defineProperty(part, DATA_PART, { value: Object.freeze(data), enumerable: false });
  return Object.freeze(part);
}

/** The part as it applies to an answer of this content type. */
function partFor(part: Part, html: boolean): Part {
  return html ? part : ((part as { [DATA_PART]?: Part })[DATA_PART] ?? part);
}

/** Adds headers (lower-case names) for this request's response; call before the handler runs. */
export function addResponseHeaders(c: Context, part: Part): void {
  const state = stateOf(c);
  if (state.first === undefined) state.first = part;
  else if (state.second === undefined) state.second = part;
  else if (state.more) state.more.push(part);
  else state.more = [part];
}

function trackedHeader(this: Tracked, ...args: Parameters<Context["header"]>): void {
  const state = this[STATE]!;
  // Once c.respond's plain answer is made, a header set on it (an after-step's) joins its plain
  // fields: through Hono it would copy the Response through a body stream (see addPlainField).
  const [name, value, options] = args;
  if (
    state.complete !== undefined &&
    state.complete === this.res &&
    value !== undefined &&
    addPlainField(state.complete, name.toLowerCase(), value, !options?.append)
  ) {
    return;
  }
  state.touched = true;
  state.honoHeader!(...args);
}

/**
 * Notes when the request sets headers through Hono (`c.header`, `setCookie`): Hono keeps those
 * where only its own response builders see them, so `c.respond` must then let Hono build.
 */
export function trackHonoHeaders(c: Context): void {
  const state = stateOf(c);
  if (state.honoHeader) return;
  state.honoHeader = c.header;
  c.header = trackedHeader as Context["header"];
}

/**
 * Whether Wisent may still make this request's response with plain headers: false once headers
 * were set through Hono (which keeps them where only its own builders see them), or once the
 * request has answered.
 */
export function answersPlain(c: Context): boolean {
  const state = (c as Tracked)[STATE];
  return state !== undefined && !state.touched && state.honoHeader !== undefined && !c.finalized;
}

/**
 * The plain headers for a response Wisent is about to make (the content type, every part (a
 * part's data headers for an answer that is not HTML, see `withDataPart`), then `extra`, names
 * in any case), or undefined when Hono must build it (headers were set through
 * Hono, or it already answered). Pass the made Response to {@link markComplete}.
 */
export function plainResponseHeaders(
  c: Context,
  contentType: string,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  if (!answersPlain(c)) return undefined;
  const state = (c as Tracked)[STATE]!;
  const headers: Record<string, string> = { "content-type": contentType };
  const html = contentType.startsWith("text/html");
  if (state.first) Object.assign(headers, partFor(state.first, html));
  if (state.second) Object.assign(headers, partFor(state.second, html));
  if (state.more) for (const part of state.more) Object.assign(headers, partFor(part, html));
  if (extra) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
  return headers;
}

/** Records that `res`, made for `c`, carries every part, so after-steps leave it alone. */
export function markComplete(c: Context, res: Response): Response {
  stateOf(c).complete = res;
  return res;
}

/** Whether the current response already carries every part. */
export function hasAllResponseHeaders(c: Context): boolean {
  const state = (c as Tracked)[STATE];
  return state?.complete !== undefined && state.complete === c.res;
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
