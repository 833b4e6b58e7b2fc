import type { ServerResponse } from "node:http";
import {
  ADDED_FIELDS_KEY,
  FIELDS_KEY,
  HEADERS_TOUCHED_KEY,
  RESPONSE_BODY_KEY,
  STATUS_KEY,
} from "../base/symbols.js";

/**
 * The Response `c.respond` makes: an ordinary Response (of the global class of the time: Hono's
 * Node adapter replaces it with a lightweight one) that also keeps its status, string body and
 * plain header object. Wisent's Node listener writes it with one `writeHead` from that object
 * when nothing has looked at its `headers` since it was made (no `Headers` built, no stream).
 * Saves building a `Headers` and reading the body back per answer (bench/load, JSON show).
 */
interface Plain extends Response {
  [STATUS]: number;
  [BODY]: string | null;
  [FIELDS]: Record<string, string | string[]>;
  /** Someone read `headers` (and may have changed them): the plain object is no longer the truth. */
  [TOUCHED]: boolean;
  /** Names of the fields added or set since the response was made (see {@link addPlainField}). */
  [ADDED]?: Set<string>;
}

const STATUS: typeof STATUS_KEY = STATUS_KEY;
const BODY: typeof RESPONSE_BODY_KEY = RESPONSE_BODY_KEY;
const FIELDS: typeof FIELDS_KEY = FIELDS_KEY;
const TOUCHED: typeof HEADERS_TOUCHED_KEY = HEADERS_TOUCHED_KEY;
const ADDED: typeof ADDED_FIELDS_KEY = ADDED_FIELDS_KEY;

type PlainClass = new (body: string | null, init: ResponseInit) => Plain;

let base: typeof Response | undefined;
let PlainResponse: PlainClass | undefined;

/** The subclass of the global Response of the time that notes when its headers are read. */
function plainClass(): PlainClass {
  if (base !== Response || PlainResponse === undefined) {
    base = Response;
    PlainResponse = class extends base {
      override get headers(): Headers {
        const plain = this as unknown as Plain;
        const headers = super.headers;
        if (!plain[TOUCHED]) {
          plain[TOUCHED] = true;
          // The fields added since it was made, for whoever reads the headers from now on.
          // The plain fields are the truth: a base Response that copied them when it was made
          // lacks what was added since (one that keeps them has it already, hence the delete).
          for (const name of plain[ADDED] ?? []) {
            headers.delete(name);
            const value = plain[FIELDS][name];
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
              headers.append(name, one);
            }
          }
        }
        return headers;
      }
    } as unknown as PlainClass;
  }
  return PlainResponse;
}

/**
 * A Response of `status` with `body` and the header fields `headers` (lower-case names; the
 * object is kept, not copied).
 *
 * @example
 * const res = plainResponse('{"id":1}', 200, { "content-type": "application/json" });
 */
export function plainResponse(
  body: string | null,
  status: number,
  headers: Record<string, string>,
): Response {
  const Plain = plainClass();
  const res = new Plain(body, { status, headers });
  res[STATUS] = status;
  res[BODY] = body;
  res[FIELDS] = headers;
  res[TOUCHED] = false;
  return res;
}

/** The plain parts of `res`, when it is a {@link plainResponse} whose headers nobody has read. */
function untouched(res: Response): Plain | undefined {
  const plain = res as Partial<Plain>;
  return plain[FIELDS] !== undefined && plain[TOUCHED] === false ? (plain as Plain) : undefined;
}

/**
 * Adds a header field (lower-case name; a repeated one, such as `set-cookie`, is sent as many
 * lines) to a {@link plainResponse} nobody has read the headers of, or with `replace` sets it:
 * true when done, false when `res` is not one (then set it the usual way). Setting a header
 * through Hono on a made response copies it through a body stream instead (bench/load
 * html-first-visit: the session cookie).
 *
 * @example
 * if (!addPlainField(c.res, "set-cookie", cookie)) c.header("Set-Cookie", cookie, { append: true });
 */
export function addPlainField(
  res: Response,
  name: string,
  value: string,
  replace = false,
): boolean {
  const plain = untouched(res);
  if (plain === undefined) return false;
  const fields = plain[FIELDS];
  const had = fields[name];
  fields[name] =
    replace || had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  const added = plain[ADDED] ?? new Set<string>();
  added.add(name);
  plain[ADDED] = added;
  return true;
}

/**
 * Removes header field `name` (lower-case) from a {@link plainResponse} nobody has read the
 * headers of: true when done (or it had none), false when `res` is not one.
 */
export function removePlainField(res: Response, name: string): boolean {
  const plain = untouched(res);
  if (plain === undefined) return false;
  if (plain[FIELDS][name] === undefined) return true;
  delete plain[FIELDS][name];
  const added = plain[ADDED] ?? new Set<string>();
  added.add(name);
  plain[ADDED] = added;
  return true;
}

/**
 * The value of field `name` (lower-case) of a {@link plainResponse} nobody has read the headers
 * of, as `{ value }` (undefined when it has none; a repeated field's values joined by `, `), or
 * undefined when `res` is not one.
 */
export function plainFieldOf(
  res: Response,
  name: string,
): { value: string | undefined } | undefined {
  const plain = untouched(res);
  if (plain === undefined) return undefined;
  const value = plain[FIELDS][name];
  return { value: Array.isArray(value) ? value.join(", ") : value };
}

/**
 * Writes `res` to `outgoing` with one `writeHead` when it is a {@link plainResponse} whose
 * headers nobody has read since it was made (so the plain object is still the truth), with the
 * `Content-Length` of its body (also for HEAD, whose body Node leaves out); false (and nothing
 * written) for any other response.
 */
export function writePlainResponse(res: Response, outgoing: ServerResponse): boolean {
  const plain = untouched(res);
  if (plain === undefined) return false;
  const fields = plain[FIELDS];
  const body = plain[BODY];
  const status = plain[STATUS];
  if (body !== null) fields["content-length"] = String(Buffer.byteLength(body));
  else if (status !== 204 && status !== 304) fields["content-length"] ??= "0";
  outgoing.writeHead(status, fields);
  if (body === null) outgoing.end();
  else outgoing.end(body);
  return true;
}

/**
 * The answer to a HEAD request from its GET route's answer: no body, and for a plain response
 * the `Content-Length` the GET answer carries (RFC 9110 9.3.2); any other response as Hono
 * answers HEAD (its headers, no body).
 */
export function headResponse(res: Response): Response {
  const plain = untouched(res);
  if (plain === undefined) return new Response(null, res);
  const fields = plain[FIELDS];
  const body = plain[BODY];
  if (body !== null) fields["content-length"] = String(Buffer.byteLength(body));
  // A repeated field (its values a list) is put right by the headers getter (ADDED).
  const head = plainResponse(null, plain[STATUS], fields as Record<string, string>) as Plain;
  if (plain[ADDED]) head[ADDED] = new Set(plain[ADDED]);
  return head;
}
