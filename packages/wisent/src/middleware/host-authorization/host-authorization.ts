import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../base/http-error.js";
import { allowedHostsSetting, isProduction } from "../../config/settings.js";
import { configuredAppUrl, requestHost } from "../../http/app-url.js";
import { passThrough, phased } from "../../kernel/compose.js";

/** Options of {@link hostAuthorization}. */
export interface HostAuthorizationOptions {
  /**
   * Hosts answered, besides `APP_URL`'s and the loopback names: `example.com` (that host, any
   * port), `.example.com` (it and every subdomain), `*` (any). Default `ALLOWED_HOSTS`,
   * comma-separated.
   */
  hosts?: readonly string[];
  /** Check hosts; default only in production (and every production-like environment). */
  enabled?: boolean;
}

/** Always answered: health checks and tools on the machine itself. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** `Host` without its port, in lower case: `Shop.Example:443` -> `shop.example`. */
function hostname(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.indexOf(":");
  return colon === -1 ? lower : lower.slice(0, colon);
}

/**
 * The allowed-host list from options, `ALLOWED_HOSTS`, `APP_URL` and the loopback names.
 * @param options - `hosts` replaces `ALLOWED_HOSTS` when given
 * @returns the host names in lower case (`.example.com` and `*` entries as given)
 * @throws WisentError `E_CONFIG_INVALID` when `APP_URL` is set and is not an http(s) URL
 * @example allowedHosts({ hosts: ["shop.example.com"] }); // ["localhost", "127.0.0.1", "[::1]", "shop.example.com"]
 */
export function allowedHosts(options: HostAuthorizationOptions = {}): string[] {
  const given = options.hosts ?? allowedHostsSetting();
  const appHost = configuredAppUrl()?.hostname;
  return [...LOOPBACK, ...(appHost ? [appHost] : []), ...given]
    .filter(Boolean)
    .map((h) => h.toLowerCase());
}

function matches(name: string, allowed: readonly string[]): boolean {
  for (const entry of allowed) {
    if (entry === "*" || entry === name) return true;
    if (entry.startsWith(".") && (name === entry.slice(1) || name.endsWith(entry))) return true;
  }
  return false;
}

/**
 * Rails' host authorization: in production a request whose `Host` is not an allowed host
 * answers 400, naming the host and how to allow it, so a forged Host can never reach a link,
 * a redirect or a cache. Allowed: `APP_URL`'s host, `ALLOWED_HOSTS` (comma-separated;
 * `.example.com` for every subdomain, `*` for any), and `localhost`/`127.0.0.1`/`[::1]`.
 *
 * @param options - `hosts` (default `ALLOWED_HOSTS`) and `enabled` (default: in
 *   production-like environments)
 * @returns the middleware (one that does nothing when not enabled)
 * @throws WisentError `E_CONFIG_INVALID` when `APP_URL` is set and is not an http(s) URL
 * @throws HttpError 400 (`E_HTTP`), from the middleware, naming a host that is not allowed, or
 *   for a Host that is not a valid host
 * @example
 * // ALLOWED_HOSTS=www.example.com,.example.org
 * app.use(hostAuthorization());
 * app.use(hostAuthorization({ hosts: ["shop.example.com"] }));
 */
export function hostAuthorization(options: HostAuthorizationOptions = {}): MiddlewareHandler {
  if (!(options.enabled ?? isProduction())) return passThrough;
  const allowed = allowedHosts(options);
  return phased({
    before: (c: Context) => {
      const host = requestHost(c);
      if (host === undefined) throw new HttpError(400, "invalid Host header");
      const name = hostname(host);
      if (matches(name, allowed)) return undefined;
      throw new HttpError(
        400,
        `Blocked host: ${name}. To answer requests for it, add it to ALLOWED_HOSTS (comma-separated, ".${name}" for its subdomains too) or set APP_URL to the app's URL`,
      );
    },
  });
}
