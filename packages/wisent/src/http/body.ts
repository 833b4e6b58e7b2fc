import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../base/http-error.js";
import { BODY_BYTES_KEY, BODY_PARAMS_KEY, MULTIPART_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import { formatOfMediaType, mediaTypeOf } from "./media-types.js";
import { type MultipartEntry, readMultipart } from "./multipart.js";
import { DEFAULT_PARAM_LIMITS, nestParams } from "./nested-params.js";
import { requestHeader } from "./request-header.js";
import { parseXml } from "./xml.js";

/** Default request body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Form fields Wisent itself reads, kept out of bound data. */
const FRAMEWORK_FIELDS = new Set(["_method", "authenticity_token"]);

declare module "hono" {
  interface ContextVariableMap {
    /** Maximum request body size in bytes for this request (see `bodyLimit()`). */
    bodyLimit: number | undefined;
  }
}

// What was read from a request rides on the request itself, under symbols: a WeakMap entry per
// request is an ephemeron the garbage collector must trace, which shows under load.
const BYTES: typeof BODY_BYTES_KEY = BODY_BYTES_KEY;
const PARAMS: typeof BODY_PARAMS_KEY = BODY_PARAMS_KEY;
const MULTIPART: typeof MULTIPART_KEY = MULTIPART_KEY;
type ReadRequest = Request & {
  [BYTES]?: Promise<Uint8Array<ArrayBuffer>>;
  [PARAMS]?: Promise<Record<string, unknown>>;
  [MULTIPART]?: Promise<MultipartEntry[]>;
};

/**
 * A multipart request's entries, read once as the body streams in (files to temporary files, see
 * `readMultipart`); later calls, and the request `overrideMethod` makes from it, share the read.
 */
export function multipartEntriesOf(request: Request): Promise<MultipartEntry[]> {
  let entries = (request as ReadRequest)[MULTIPART];
  if (!entries) {
    entries = readMultipart(request, request.headers.get("content-type") ?? "");
    (request as ReadRequest)[MULTIPART] = entries;
  }
  return entries;
}

/** Hands a multipart read to a request made from the one that was read (`overrideMethod`). */
export function shareMultipartRead(from: Request, to: Request): void {
  const entries = (from as ReadRequest)[MULTIPART];
  if (entries) (to as ReadRequest)[MULTIPART] = entries;
}

/**
 * Sets the request body limit (bytes) for the routes declared after it; the default is 1 MiB.
 * A larger body is refused with 413 when it is read.
 *
 * @param bytes - the largest body, in bytes
 * @returns the middleware
 * @throws WisentError `E_CONFIG_INVALID` when `bytes` is not a non-negative integer
 * @throws HttpError 413 (`E_HTTP`), when a handler reads a larger body
 * @example
 * app.group("/uploads").use(bodyLimit(20 * 1024 * 1024));
 */
export function bodyLimit(bytes: number): MiddlewareHandler {
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw new WisentError(
      "E_CONFIG_INVALID",
      `bodyLimit(bytes): expected a non-negative integer, got ${bytes}`,
    );
  }
  return async (c, next) => {
    c.set("bodyLimit", bytes);
    await next();
  };
}

/** The client went away (or its body stream broke) mid-upload: its fault, not a 500. */
function unreadable(cause: unknown): HttpError {
  return new HttpError(400, `request body could not be read: ${(cause as Error).message}`, {
    cause,
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than the limit of ${limit} bytes`);
}

/**
 * Reads a request body completely, refusing more than `limit` bytes with a 413 HttpError
 * (checked against Content-Length first, then while streaming). `contentLength` is the header's
 * value when the caller has it at hand (default: read from the request).
 */
export async function readBodyBytes(
  request: Request,
  limit: number,
  contentLength: string | null = request.headers.get("content-length"),
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = contentLength === null ? Number.NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (Number.isInteger(declared) && declared >= 0) {
    // A declared length within the limit: the HTTP parser delivers exactly that many bytes, so
    // the body is read whole, which Hono's Node adapter does straight from the socket (the
    // streaming path below makes it build a full Fetch Request and a ReadableStream first).
    try {
      return new Uint8Array(await request.arrayBuffer());
    } catch (cause) {
      throw unreadable(cause);
    }
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (cause) {
      throw unreadable(cause);
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The request body bytes, read once per request (later calls share the first read). */
export function bodyBytesOf(c: Context): Promise<Uint8Array<ArrayBuffer>> {
  const request = c.req.raw;
  let bytes = (request as ReadRequest)[BYTES];
  if (!bytes) {
    const limit = c.get("bodyLimit") ?? DEFAULT_BODY_LIMIT;
    bytes = readBodyBytes(request, limit, requestHeader(c, "content-length") ?? null);
    (request as ReadRequest)[BYTES] = bytes;
  }
  return bytes;
}

/**
 * Collects form or query entries into a plain object: repeated names and `key[]` become arrays,
 * bracketed names (`widget[title]`, `items[0][name]`) nest (see {@link nestParams}); Wisent's own
 * fields are left out. Throws HttpError 400 naming a parameter beyond the limits.
 */
export function formToObject(
  entries: Iterable<[string, FormDataEntryValue | MultipartEntry[1]]>,
): Record<string, unknown> {
  return nestParams(entries, DEFAULT_PARAM_LIMITS, FRAMEWORK_FIELDS);
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/**
 * The query of a request URL, read from the string: no `new URL()`, which throws for a URL whose
 * host the WHATWG parser refuses (a listener may build the URL from a Host such as `1.2.3.256`).
 */
function queryOf(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return "";
  const hash = url.indexOf("#", start);
  return url.slice(start + 1, hash === -1 ? undefined : hash);
}

async function parse(c: Context): Promise<Record<string, unknown>> {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD") {
    return formToObject(new URLSearchParams(queryOf(c.req.url)).entries());
  }
  const contentType = requestHeader(c, "content-type")?.trim() ?? "";
  const mediaType = mediaTypeOf(contentType);
  // Streamed, never buffered: files go to temporary files as they arrive.
  if (mediaType === "multipart/form-data") return formToObject(await multipartEntriesOf(c.req.raw));
  const bytes = await bodyBytesOf(c);
  if (bytes.byteLength === 0) return {};
  if (mediaType === "") {
    throw new HttpError(415, "request has a body but no Content-Type header");
  }
  if (mediaType === "application/x-www-form-urlencoded") {
    return formToObject(new URLSearchParams(decodeText(bytes)).entries());
  }
  const format = formatOfMediaType(mediaType);
  if (format === "json") {
    let value: unknown;
    try {
      value = JSON.parse(decodeText(bytes));
    } catch (cause) {
      throw new HttpError(400, `malformed JSON body: ${(cause as Error).message}`, { cause });
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new HttpError(400, "JSON body must be an object");
    }
    return value as Record<string, unknown>;
  }
  if (format === "xml") return parseXml(decodeText(bytes));
  throw new HttpError(
    415,
    `unsupported Content-Type "${mediaType}": send application/x-www-form-urlencoded, multipart/form-data, JSON or XML`,
  );
}

/**
 * The request's parameters as one plain object: the query for GET/HEAD, otherwise the body
 * (urlencoded, multipart, JSON or XML). Parsed once per request and shared by CSRF, logging and
 * `c.bind()`. Throws HttpError 400 (malformed), 413 (too large) or 415 (unknown content type).
 */
export function bodyParamsOf(c: Context): Promise<Record<string, unknown>> {
  const request = c.req.raw;
  let params = (request as ReadRequest)[PARAMS];
  if (!params) {
    params = parse(c);
    (request as ReadRequest)[PARAMS] = params;
  }
  return params;
}

/** The parsed body if something already read it during this request (never starts a read). */
export function parsedBodyIfRead(c: Context): Promise<Record<string, unknown>> | undefined {
  return (c.req.raw as ReadRequest)[PARAMS];
}

/** Raw form field (before framework fields are dropped), for CSRF and method override. */
export async function rawFormField(c: Context, name: string): Promise<string | undefined> {
  const contentType = requestHeader(c, "content-type") ?? "";
  const mediaType = mediaTypeOf(contentType);
  if (mediaType !== "application/x-www-form-urlencoded" && mediaType !== "multipart/form-data") {
    return undefined;
  }
  if (mediaType === "multipart/form-data") {
    const value = (await multipartEntriesOf(c.req.raw)).find(([field]) => field === name)?.[1];
    return typeof value === "string" ? value : undefined;
  }
  const bytes = await bodyBytesOf(c);
  return formFieldFromBytes(bytes, contentType, name);
}

/** Reads one field of an urlencoded or multipart body held in memory. */
export async function formFieldFromBytes(
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
  name: string,
): Promise<string | undefined> {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === "application/x-www-form-urlencoded") {
    return new URLSearchParams(decodeText(bytes)).get(name) ?? undefined;
  }
  if (mediaType === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
    } catch (cause) {
      throw new HttpError(400, `malformed multipart body: ${(cause as Error).message}`, { cause });
    }
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}
