import type { Context } from "hono";
import {
  DATA_PART_KEY,
  KEEP_FIELDS_KEY,
  PAGE_PART_KEY,
  RESPONSE_HEADERS_KEY,
} from "../base/symbols.js";
import { addPlainField, plainFieldOf, removePlainField } from "./plain-response.js";

/**
 * Headers Wisent's middleware puts on every response (security headers, the request id), kept
 * as plain objects ("parts"). When `c.respond` makes the Response itself it hands them over in
 * one plain object with the content type, which the Node listener writes as it is (the fast
 * path). A `Headers` object costs about 8 us for a dozen headers (every `set` is validated,
 * iteration sorts), more than the rest of a JSON show. Responses made any other way (redirects,
 * errors, Hono's `c.json` after `c.header`, a handler's own Response) get them once the route
 * has answered, in the after-step of the phased middleware (the slow path: their `Headers`
 * edited). Middleware says only {@link setHeaders} / {@link setHeader}; which path is the kernel's
 * business.
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
  /** The response the slow path last put the parts on, and how many (see applyResponseHeaders). */
  appliedTo: Response | undefined;
  applied: number;
}

const STATE: typeof RESPONSE_HEADERS_KEY = RESPONSE_HEADERS_KEY;
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
      appliedTo: undefined,
      applied: 0,
    };
    tracked[STATE] = state;
  }
  return state;
}

const DATA_PART: typeof DATA_PART_KEY = DATA_PART_KEY;
const KEEP: typeof KEEP_FIELDS_KEY = KEEP_FIELDS_KEY;
const PAGE_PART: typeof PAGE_PART_KEY = PAGE_PART_KEY;

/** Whether an answer's own value of field `name` stays (the part's value is not set over it). */
export type KeepField = (name: string, current: string) => boolean;

/** How a {@link headerPart} applies beyond its fields. */
export interface HeaderPartOptions {
  /** The fields it stands for on a JSON or XML answer (default: the same fields). */
  readonly data?: Record<string, string>;
  /**
   * On an answer that has a field of the part already (a route's own `Cache-Control`, the
   * development error page's CSP), whether that value stays; default: the part's value wins.
   */
  readonly keep?: KeepField;
  /**
   * The fields it stands for on any other answer (HTML), made from the request when that answer
   * is (default: the part's own fields): what only a page needs is then never made for a JSON
   * answer (the CSP's nonce: bench/load/ab-instructions.mjs, JSON show).
   */
  readonly page?: (c: Context) => Record<string, string>;
}

/**
 * A fixed set of response header fields (lower-case names), made once by a middleware and
 * given to {@link setHeaders} on every request.
 *
 * @example
 * const part = headerPart({ "x-frame-options": "DENY" });
 * app.use(phased({ before: (c) => setHeaders(c, part) }));
 */
export function headerPart(
  fields: Record<string, string>,
  options: HeaderPartOptions = {},
): Readonly<Record<string, string>> {
  if (options.data) {
    Object.defineProperty(fields, DATA_PART, { value: Object.freeze(options.data) });
  }
  if (options.keep) Object.defineProperty(fields, KEEP, { value: options.keep });
  if (options.page) Object.defineProperty(fields, PAGE_PART, { value: options.page });
  return Object.freeze(fields);
}

type Extended = Part & { [DATA_PART]?: Part; [PAGE_PART]?: (c: Context) => Part };

/** The part as it applies to this request's answer of this content type. */
function partFor(c: Context, part: Part, html: boolean): Part {
  if (!html) return (part as Extended)[DATA_PART] ?? part;
  const page = (part as Extended)[PAGE_PART];
  return page === undefined ? part : page(c);
}

/**
 * Sets response header fields (lower-case names) for this request, on whatever answer it ends
 * with. Before there is an answer (a phased middleware's `before`, a handler), the fields join
 * the plain headers `c.respond` makes its Response with; an answer made any other way (a
 * redirect, an error page, a handler's own Response) gets them once the route has answered,
 * with its `Headers` edited (copied first when they are immutable). Once there is an answer
 * (an after-step), they are set on it at once. Either way the cheapest path is taken.
 *
 * @example
 * app.use(phased({ before: (c) => setHeaders(c, { "x-request-id": id }) }));
 */
export function setHeaders(c: Context, part: Part): void {
  if (c.finalized) applyPart(c, part);
  else addResponseHeaders(c, part);
}

/**
 * One response header field for this request (see {@link setHeaders}).
 *
 * @example
 * setHeader(c, "X-Request-Id", id);
 */
export function setHeader(c: Context, name: string, value: string): void {
  setHeaders(c, { [name.toLowerCase()]: value });
}

/**
 * Removes a response header field from this request's answer (call it once there is one: an
 * after-step), from its plain fields when nobody has read its headers, else from its Headers.
 *
 * @example
 * app.use(phased({ after: (c) => removeHeader(c, "x-powered-by") }));
 */
export function removeHeader(c: Context, name: string): void {
  const lower = name.toLowerCase();
  if (removePlainField(c.res, lower)) return;
  if (!c.res.headers.has(lower)) return;
  editResponseHeaders(c, (headers) => headers.delete(lower));
}

/**
 * The parts of this request put on its current answer when `c.respond` did not make it with
 * them (or it was replaced since): the slow path of {@link setHeaders}, run by every phased
 * middleware's after-step (kernel/compose.ts), innermost first, so the answer carries them
 * before any outer after-step reads it.
 */
export function applyResponseHeaders(c: Context): void {
  const state = (c as Tracked)[STATE];
  if (state === undefined || state.first === undefined) return;
  const res = c.res;
  if (state.complete === res) return;
  const count = state.second === undefined ? 1 : 2 + (state.more?.length ?? 0);
  let i = state.appliedTo === res ? state.applied : 0;
  if (i === count) return;
  for (; i < count; i++) {
    applyPart(c, i === 0 ? state.first : i === 1 ? state.second! : state.more![i - 2]!);
  }
  state.appliedTo = c.res;
  state.applied = count;
}

/** Sets `part` on the current answer: its plain fields when nobody has read its headers, else its Headers. */
function applyPart(c: Context, part: Part): void {
  const keep = (part as { [KEEP]?: KeepField })[KEEP];
  const res = c.res;
  const type = plainFieldOf(res, "content-type");
  if (type !== undefined) {
    const fields = partFor(c, part, !isDataType(type.value ?? null));
    for (const name in fields) {
      const current = keep ? plainFieldOf(res, name)!.value : undefined;
      if (current === undefined || !keep!(name, current)) {
        addPlainField(res, name, fields[name]!, true);
      }
    }
    return;
  }
  editResponseHeaders(c, (headers) => {
    const fields = partFor(c, part, !isDataType(headers.get("content-type")));
    for (const name in fields) {
      const current = keep ? headers.get(name) : null;
      if (current === null || !keep!(name, current)) headers.set(name, fields[name]!);
    }
  });
}

/** Whether a content type is JSON or XML (`application/problem+json`, `text/xml`, ...). */
export function isDataType(type: string | null): boolean {
  if (type === null) return false;
  const essence = type.split(";", 1)[0]!.trim().toLowerCase();
  return /^(application|text)\/(.+\+)?(json|xml)$/.test(essence);
}

/** Notes `part` for this request's answer, not made yet (see {@link setHeaders}). */
function addResponseHeaders(c: Context, part: Part): void {
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
  if (state.first) Object.assign(headers, partFor(c, state.first, html));
  if (state.second) Object.assign(headers, partFor(c, state.second, html));
  if (state.more) for (const part of state.more) Object.assign(headers, partFor(c, part, html));
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
