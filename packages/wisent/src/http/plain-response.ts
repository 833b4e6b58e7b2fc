import type { ServerResponse } from "node:http";

/**
 * The Response `c.respond` makes: status, a string body and one plain header object, with the
 * real `Response` (and its `Headers`) built only when something reads more than the status.
 * Wisent's Node listener writes it with one `writeHead` from that object (no `Headers`, no
 * stream); `app.fetch` callers see an ordinary Response (`instanceof Response` holds).
 * Saves building a `Headers` and a `Response` per answer (bench/load, JSON show).
 */
interface Plain extends Response {
  [STATUS]: number;
  [BODY]: string | null;
  [FIELDS]: Record<string, string>;
  [HEADERS]: Headers | undefined;
  [REAL]: Response | undefined;
}

const STATUS = Symbol("wisent.status");
const BODY = Symbol("wisent.body");
const FIELDS = Symbol("wisent.fields");
const HEADERS = Symbol("wisent.headers");
const REAL = Symbol("wisent.realResponse");

function headersOf(res: Plain): Headers {
  let headers = res[HEADERS];
  if (!headers) {
    headers = new Headers(res[FIELDS]);
    res[HEADERS] = headers;
  }
  return headers;
}

function realOf(res: Plain): Response {
  let real = res[REAL];
  if (!real) {
    real = new Response(res[BODY], { status: res[STATUS], headers: headersOf(res) });
    res[REAL] = real;
  }
  return real;
}

const prototype = {
  get status(): number {
    return (this as unknown as Plain)[STATUS];
  },
  get ok(): boolean {
    const status = (this as unknown as Plain)[STATUS];
    return status >= 200 && status < 300;
  },
  get headers(): Headers {
    return headersOf(this as unknown as Plain);
  },
  get bodyUsed(): boolean {
    return (this as unknown as Plain)[REAL]?.bodyUsed ?? false;
  },
};
for (const name of ["body", "redirected", "statusText", "type", "url"]) {
  Object.defineProperty(prototype, name, {
    get(this: Plain) {
      return (realOf(this) as unknown as Record<string, unknown>)[name];
    },
  });
}
for (const name of ["arrayBuffer", "blob", "clone", "formData", "json", "text", "bytes"]) {
  Object.defineProperty(prototype, name, {
    value(this: Plain) {
      const real = realOf(this) as unknown as Record<string, () => unknown>;
      return real[name]!.call(real);
    },
  });
}
Object.defineProperty(prototype, Symbol.for("nodejs.util.inspect.custom"), {
  value(this: Plain) {
    return `Response (plain) ${this[STATUS]} ${JSON.stringify(this[FIELDS])}`;
  },
});

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
  // Chained to the global Response of the time (Hono's Node adapter replaces it), so that
  // `instanceof Response` holds whichever it is.
  if (Object.getPrototypeOf(prototype) !== Response.prototype) {
    Object.setPrototypeOf(prototype, Response.prototype);
  }
  const res = Object.create(prototype) as Plain;
  res[STATUS] = status;
  res[BODY] = body;
  res[FIELDS] = headers;
  res[HEADERS] = undefined;
  res[REAL] = undefined;
  return res;
}

/**
 * Writes `res` to `outgoing` with one `writeHead` when it is a {@link plainResponse} whose
 * headers and body nobody has read since it was made (so the plain object is still the truth),
 * with the `Content-Length` of its body (also for HEAD, whose body Node leaves out); false (and
 * nothing written) for any other response.
 */
export function writePlainResponse(res: Response, outgoing: ServerResponse): boolean {
  const plain = res as Partial<Plain>;
  const fields = plain[FIELDS];
  if (fields === undefined || plain[HEADERS] !== undefined || plain[REAL] !== undefined) {
    return false;
  }
  const body = plain[BODY]!;
  const status = plain[STATUS]!;
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
  const plain = res as Partial<Plain>;
  const fields = plain[FIELDS];
  if (fields === undefined || plain[HEADERS] !== undefined || plain[REAL] !== undefined) {
    return new Response(null, res);
  }
  const body = plain[BODY]!;
  if (body !== null) fields["content-length"] = String(Buffer.byteLength(body));
  return plainResponse(null, plain[STATUS]!, fields);
}
