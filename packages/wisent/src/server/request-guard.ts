import type { IncomingMessage } from "node:http";
import { BoundedMemo } from "../base/bounded-memo.js";
import { urlStandardAcceptsHost } from "../base/url-host.js";

/** An answer decided from the request line and headers alone, before routing. */
export interface Refusal {
  readonly status: number;
  /** Plain-text message naming what is wrong (never the raw request data). */
  readonly message: string;
  /** The connection cannot be reused (the body's framing or size is not acceptable). */
  readonly close: boolean;
}

/** Longest request target answered (longer: 414). */
export const MAX_URL_LENGTH = 8 * 1024;

/** Verdicts per Host value (hosts repeat, so a request costs one Map lookup). */
const checkedHosts = new BoundedMemo<string, boolean>(512);

/** RFC 3986 `host [ ":" port ]`: an IP literal, or a reg-name of unreserved/sub-delims/%XX. */
const HOST_SYNTAX =
  /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::\d{1,5})?$/;

/** `%` not followed by two hex digits. */
const BROKEN_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * Whether `host` is a Host header both RFC 3986 and the URL standard accept (`1.2.3.256`
 * passes Node's parser but makes `new URL()` throw; `a"b` is not a host at all; `xn--zz` is not
 * Punycode, see `urlStandardAcceptsHost`).
 */
export function isValidHost(host: string): boolean {
  return checkedHosts.get(host, checkHost);
}

function checkHost(host: string): boolean {
  return HOST_SYNTAX.test(host) && urlStandardAcceptsHost(host);
}

/** Whether a Content-Type header is `multipart/form-data`. */
function isMultipartType(type: string | undefined): boolean {
  return type !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(type);
}

/** Whether the request announces a body (`Content-Length` above 0, or any `Transfer-Encoding`). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * The refusal for a request whose line or headers no route can accept, or undefined (the usual
 * case: a Map lookup and a few comparisons). Checks: one valid `Host`, a URL of at most
 * {@link MAX_URL_LENGTH} with well-formed percent-encoding in its path, no transfer coding but
 * `chunked`, no content coding on a body, and a declared body of at most `bodyLimit` bytes.
 *
 * @example
 * const refusal = requestRefusal(req, 1024 * 1024);
 * if (refusal) answerRefusal(res, refusal);
 */
export function requestRefusal(
  req: IncomingMessage,
  bodyLimit: number,
  uploadLimit: number = bodyLimit,
): Refusal | undefined {
  const headers = req.headers;
  const url = req.url ?? "/";
  if (url.length > MAX_URL_LENGTH) {
    return refusal(414, `the request URL is longer than ${MAX_URL_LENGTH} bytes`, false);
  }
  const host = headers.host;
  if (host !== undefined) {
    if (!isValidHost(host)) {
      return refusal(400, "the Host header is not a valid host name (RFC 3986, WHATWG URL)", false);
    }
    if (hostHeaderCount(req.rawHeaders) > 1) {
      return refusal(400, "the request has more than one Host header", false);
    }
  }
  if (url.includes("%")) {
    const queryAt = url.indexOf("?");
    if (BROKEN_PERCENT.test(queryAt === -1 ? url : url.slice(0, queryAt))) {
      return refusal(
        400,
        'the request path has broken percent-encoding ("%" must be followed by two hex digits)',
        false,
      );
    }
  }
  const transferEncoding = headers["transfer-encoding"];
  if (transferEncoding !== undefined && transferEncoding.toLowerCase() !== "chunked") {
    return refusal(
      400,
      "Transfer-Encoding other than chunked is not supported: send the body chunked or with Content-Length",
      true,
    );
  }
  const contentLength = headers["content-length"];
  if (contentLength !== undefined && Number(contentLength) > bodyLimit) {
    // A multipart body streams to temporary files: it has its own, larger limit.
    const limit = isMultipartType(headers["content-type"]) ? uploadLimit : bodyLimit;
    if (Number(contentLength) > limit) {
      return refusal(413, `the request body is larger than the limit of ${limit} bytes`, true);
    }
  }
  const contentEncoding = headers["content-encoding"];
  if (
    contentEncoding !== undefined &&
    contentEncoding.toLowerCase() !== "identity" &&
    hasBody(req)
  ) {
    return refusal(
      415,
      "Content-Encoding is not supported: send the request body uncompressed",
      false,
    );
  }
  return undefined;
}

function refusal(status: number, message: string, close: boolean): Refusal {
  return { status, message, close };
}

function hostHeaderCount(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === "host") count++;
  }
  return count;
}
