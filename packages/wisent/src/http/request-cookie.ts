import type { Context } from "hono";
import { parse as parseCookies } from "hono/utils/cookie";
import { BoundedMemo } from "../base/bounded-memo.js";
import { requestHeader } from "./request-header.js";

// A returning browser sends the same Cookie header on every request: each named cookie's value
// in it is read once, as Hono's `getCookie` reads it.
const byName = new Map<string, NamedCookie>();
const MAX_COOKIE_HEADERS = 1000;

/** One cookie name's remembered values by Cookie header, and how to read it from one. */
interface NamedCookie {
  readonly values: BoundedMemo<string, string | undefined>;
  readonly read: (header: string) => string | undefined;
}

/**
 * The value of the named cookie in the request's Cookie header, or undefined.
 *
 * @example
 * const language = requestCookie(c, "lang");
 */
export function requestCookie(c: Context, name: string): string | undefined {
  const header = requestHeader(c, "cookie");
  if (!header) return undefined;
  let cookie = byName.get(name);
  if (!cookie) {
    cookie = {
      values: new BoundedMemo(MAX_COOKIE_HEADERS),
      read: (cookies) => parseCookies(cookies, name)[name],
    };
    byName.set(name, cookie);
  }
  return cookie.values.get(header, cookie.read);
}
