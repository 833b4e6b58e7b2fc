/**
 * Where absolute URLs come from: the configured `APP_URL` when set, else the request (its Host,
 * when it is a well-formed host, and the scheme a trusted proxy reported). A Host that is not a host
 * (`a"b`, `1.2.3.256`) never reaches a header: the URL stays relative instead.
 * @module
 */
import type { Context } from "hono";
import { BoundedMemo } from "../base/bounded-memo.js";
import { urlStandardAcceptsHost } from "../base/url-host.js";
import { WisentError } from "../base/wisent-error.js";
import type { Env } from "../config/env.js";
import { appUrlSetting } from "../config/settings.js";
import { forwardedScheme } from "./client-address.js";
import { pathFormatOf } from "./path-format.js";
import { requestHeader } from "./request-header.js";

/** `name`, `name:port`, `1.2.3.4:port` or `[v6]:port`: RFC 3986's host, conservatively. */
const HOST_SYNTAX =
  /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

let parsedFrom: string | undefined;
let parsed: URL | undefined;

/**
 * The app's public URL from `APP_URL` (parsed once per value), or undefined when unset.
 * Throws, naming the variable, when it is not an http(s) URL.
 *
 * @example
 * // APP_URL=https://shop.example.com
 * configuredAppUrl()?.origin; // "https://shop.example.com"
 */
export function configuredAppUrl(env: Env = process.env): URL | undefined {
  const value = appUrlSetting(env);
  if (value === undefined) return undefined;
  if (value === parsedFrom) return parsed;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WisentError(
      "E_CONFIG_INVALID",
      `APP_URL is not a URL: ${JSON.stringify(value)} (e.g. https://shop.example.com)`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new WisentError(
      "E_CONFIG_INVALID",
      `APP_URL must be an http or https URL (got ${JSON.stringify(value)})`,
    );
  }
  parsedFrom = value;
  parsed = url;
  return url;
}

/**
 * `APP_URL` for this request: the App's, read once (a read of `process.env` was 1% of a JSON
 * list, bench/load/profile.mjs); outside an App (a bare Hono app) read now.
 * @throws WisentError `E_CONFIG_INVALID` when `APP_URL` is not an http(s) URL
 */
export function requestAppUrl(c: Context): URL | undefined {
  const appUrl = (c.get("wisent") as { appUrl?: () => URL | undefined } | undefined)?.appUrl;
  return appUrl ? appUrl() : configuredAppUrl();
}

/** Verdicts per Host value: a `new URL()` a request cost 5 us under load (bench/load/profile.mjs). */
const checkedHosts = new BoundedMemo<string, boolean>(1000);

function checkHost(host: string): boolean {
  return host.length <= 255 && HOST_SYNTAX.test(host) && urlStandardAcceptsHost(host);
}

/** True when `host` (a Host header's value) is a well-formed host with an optional port. */
export function isValidHost(host: string): boolean {
  return checkedHosts.get(host, checkHost);
}

/**
 * The request's own scheme: `https` when it came over TLS, or when a proxy of `TRUSTED_PROXIES`
 * says so (`X-Forwarded-Proto`, or `Forwarded`'s `proto=`: {@link forwardedScheme}); from anyone
 * else the header is ignored.
 */
export function requestScheme(c: Context): "http" | "https" {
  if (c.req.url.startsWith("https:")) return "https";
  return forwardedScheme(c) === "https" ? "https" : "http";
}

/** The request's Host (the header, else the URL's), or undefined when it is not a valid host. */
export function requestHost(c: Context): string | undefined {
  const host = requestHeader(c, "host") ?? hostOfUrl(c.req.url);
  return host !== undefined && isValidHost(host) ? host.toLowerCase() : undefined;
}

function hostOfUrl(url: string): string | undefined {
  const start = url.indexOf("//");
  if (start === -1) return undefined;
  const end = url.indexOf("/", start + 2);
  return url.slice(start + 2, end === -1 ? undefined : end);
}

/**
 * The origin absolute URLs start with: `APP_URL`'s, else the request's scheme (the proxy's) and
 * Host; undefined when the Host is not a valid host.
 *
 * @param c - the request's context
 * @returns the origin (`https://shop.example.com`), or undefined
 * @throws WisentError `E_CONFIG_INVALID` when `APP_URL` is set and is not an http(s) URL
 * @example
 * appOrigin(c); // "https://shop.example.com"
 */
export function appOrigin(c: Context): string | undefined {
  const configured = requestAppUrl(c);
  if (configured) return configured.origin;
  const host = requestHost(c);
  return host === undefined ? undefined : `${requestScheme(c)}://${host}`;
}

/**
 * The path and query the client asked for, as sent (the format extension the App strips before
 * routing put back): `/widgets.json?per_page=2`.
 */
export function requestTarget(c: Context): string {
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const queryAt = url.indexOf("?", start);
  const path = queryAt === -1 ? url.slice(start) : url.slice(start, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt);
  const format = pathFormatOf(c.req.raw);
  const withFormat = format && !path.endsWith(`.${format}`) ? `${path}.${format}` : path;
  return `${withFormat}${query}`.replace(/#.*$/, "");
}

/**
 * The absolute URL of the request itself, from {@link appOrigin} and {@link requestTarget};
 * path and query only when there is no trustworthy origin.
 */
export function absoluteRequestUrl(c: Context): string {
  return `${appOrigin(c) ?? ""}${requestTarget(c)}`;
}
