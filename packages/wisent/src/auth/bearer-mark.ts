import type { Context } from "hono";
import { BEARER_TOKENS_KEY } from "../base/symbols.js";

const BEARER: typeof BEARER_TOKENS_KEY = BEARER_TOKENS_KEY;
type Marked = Context & { [BEARER]?: true };

/**
 * Whether this request's app authenticates with bearer tokens (`tokenAuthentication()` ran).
 * @param c - the request's context
 * @returns true after `tokenAuthentication()` ran for the request
 */
export function usesBearerTokens(c: Context): boolean {
  return (c as Marked)[BEARER] === true;
}
