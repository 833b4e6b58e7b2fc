import { HttpError } from "../../base/http-error.js";
import {
  DEFAULT_BODY_LIMIT,
  formFieldFromBytes,
  multipartEntriesOf,
  readBodyBytes,
  shareMultipartRead,
} from "../../http/body.js";
import { mediaTypeOf } from "../../http/media-types.js";

const OVERRIDABLE = new Set(["PUT", "PATCH", "DELETE"]);
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** Whether a Content-Type is a form's (urlencoded or multipart), the only bodies `_method` is read from. */
export function isFormType(contentType: string): boolean {
  return FORM_TYPES.has(mediaTypeOf(contentType));
}

/**
 * Method override for HTML forms: a POST whose urlencoded or multipart body has `_method`
 * (any case) becomes a PUT, PATCH or DELETE. Call it before routing, since routing matches on
 * the method. An urlencoded body is buffered (413 HttpError above `bodyLimit`, default 1 MiB)
 * and the returned Request carries the same bytes and headers; a multipart body is read once as
 * it streams (files to temporary files) and the returned Request shares that read; without a usable `_method` the original
 * request comes back untouched. Any other `_method` value is a 400 HttpError naming it.
 *
 * @param request - the incoming request
 * @param options - `bodyLimit`: the largest urlencoded body read, in bytes (default 1 MiB)
 * @returns the request with its method overridden, or the original one
 * @throws HttpError 400 (`E_HTTP`) naming an unknown `_method`, 413 for an urlencoded body
 *   over the limit
 * @example
 * const request = await overrideMethod(incoming); // POST _method=delete -> DELETE
 */
export async function overrideMethod(
  request: Request,
  options: { bodyLimit?: number } = {},
): Promise<Request> {
  if (request.method !== "POST") return request;
  const contentType = request.headers.get("content-type") ?? "";
  if (!isFormType(contentType)) return request;
  // After the type: asking for the body makes Hono's Node adapter build a full Fetch Request.
  if (!request.body) return request;

  if (mediaTypeOf(contentType) === "multipart/form-data") {
    const entries = await multipartEntriesOf(request);
    const field = entries.find(([name]) => name === "_method")?.[1];
    const method = checkedMethod(typeof field === "string" ? field : "");
    const made = new Request(request.url, {
      method: method === "" ? "POST" : method,
      headers: request.headers,
      signal: request.signal,
    });
    shareMultipartRead(request, made);
    return made;
  }
  const bytes = await readBodyBytes(request, options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const method = checkedMethod((await formFieldFromBytes(bytes, contentType, "_method")) ?? "");
  // The original body stream is consumed either way, so even an unchanged POST is rebuilt.
  return new Request(request.url, {
    method: method === "" ? "POST" : method,
    headers: request.headers,
    body: bytes,
    signal: request.signal,
  });
}

/** `_method` upper-cased ("" when blank); a 400 HttpError naming any other value. */
function checkedMethod(field: string): string {
  const value = field.trim();
  const method = value.toUpperCase();
  if (method !== "" && method !== "POST" && !OVERRIDABLE.has(method)) {
    throw new HttpError(400, `unknown _method "${value}": use PUT, PATCH or DELETE`);
  }
  return method;
}
