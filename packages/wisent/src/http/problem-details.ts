import type { Context } from "hono";
import { parseAccept } from "./format.js";
import { requestHeader } from "./request-header.js";

/** The media type of RFC 9457 problem details. */
export const PROBLEM_JSON = "application/problem+json";

/** An RFC 9457 problem details object; `errors` carries a 422's messages by field. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Record<string, string[]>;
}

/**
 * Whether the client asked for RFC 9457 problem details (`Accept: application/problem+json`
 * with a q above 0). Without it, errors keep the default `{"error","code"}` shape.
 */
export function wantsProblemDetails(c: Context): boolean {
  const accept = requestHeader(c, "accept");
  if (!accept?.toLowerCase().includes(PROBLEM_JSON)) return false;
  return parseAccept(accept).some(
    (range) => `${range.type}/${range.subtype}` === PROBLEM_JSON && range.q > 0,
  );
}

/**
 * A problem details body: `type` is `about:blank` (the status says it all), `title` the status's
 * reason phrase.
 * @example problemDetails(404, "Not Found", "widget not found: 1")
 * // { type: "about:blank", title: "Not Found", status: 404, detail: "widget not found: 1" }
 */
export function problemDetails(
  status: number,
  title: string,
  detail: string | undefined,
  errors?: Record<string, string[]>,
): ProblemDetails {
  return {
    type: "about:blank",
    title,
    status,
    ...(detail !== undefined && { detail }),
    ...(errors !== undefined && { errors }),
  };
}
