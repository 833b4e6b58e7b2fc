import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../base/http-error.js";
import { isProduction } from "../../config/settings.js";
import { configuredAppUrl, requestHost, requestScheme, requestTarget } from "../../http/app-url.js";
import { outsideHealthChecks } from "../../http/health-check.js";
import { passThrough, phased } from "../../kernel/compose.js";
import { headerPart, setHeaders } from "../../kernel/response-headers.js";

/** Options of {@link forceSSL}. */
export interface ForceSSLOptions {
  /** Redirect plain HTTP to HTTPS; default: only in production (`GO_ENV`, else `NODE_ENV`). */
  enabled?: boolean;
  /**
   * `Strict-Transport-Security` on every response once force-SSL is on: by default (and with
   * `true`) `max-age=63072000; includeSubDomains` (two years, as Rails' `force_ssl`); `false`
   * turns it off (browsers remember it: start with a short `maxAge` when unsure).
   */
  hsts?: boolean | { maxAge?: number; includeSubDomains?: boolean; preload?: boolean };
}

/**
 * True when the request came over HTTPS, directly or through a proxy saying so
 * (`X-Forwarded-Proto: https`).
 * @param c - the request's context
 * @returns whether the request's scheme is https
 */
export function isSecureRequest(c: Context): boolean {
  return requestScheme(c) === "https";
}

/** Two years, as Rails' `force_ssl`. */
const HSTS_MAX_AGE = 63_072_000;

function hstsValue(hsts: ForceSSLOptions["hsts"]): string | undefined {
  if (!hsts) return undefined;
  const {
    maxAge = HSTS_MAX_AGE,
    includeSubDomains = true,
    preload = false,
  } = hsts === true ? {} : hsts;
  return [`max-age=${maxAge}`, includeSubDomains && "includeSubDomains", preload && "preload"]
    .filter(Boolean)
    .join("; ");
}

/**
 * Redirects plain-HTTP requests to their HTTPS form in production (and every production-like
 * environment): to `APP_URL`'s host when set, else the request's (a Host that is not a valid
 * host answers 400), same path and query; 301 for GET and HEAD, 308 for other methods (so a form
 * post stays a post). A request with `X-Forwarded-Proto: https` counts as secure. Sends HSTS
 * (two years, includeSubDomains) unless `hsts: false`. It does not enable TLS itself. The health
 * route (`app.healthCheck`) is left out: load balancers probe it over plain HTTP.
 *
 * @param options - `enabled` (default: in production-like environments) and `hsts`
 * @returns the middleware (one that does nothing when not enabled)
 * @throws HttpError 400 (`E_HTTP`), from the middleware, for a plain-HTTP request whose Host is
 *   not a valid host (and no `APP_URL`)
 * @throws WisentError `E_CONFIG_INVALID` when `APP_URL` is set and is not an http(s) URL, from the middleware
 * @example
 * app.use(forceSSL());
 * app.use(forceSSL({ hsts: { maxAge: 300 } })); // trying HSTS out
 */
export function forceSSL(options: ForceSSLOptions = {}): MiddlewareHandler {
  const enabled = options.enabled ?? isProduction();
  const hsts = hstsValue(options.hsts ?? true);
  if (!enabled) return passThrough;
  // One fixed part for every format, handed to c.respond's plain headers: setting it on the made
  // response instead (c.header after the handler) copied the Response and cost a JSON answer its
  // lean header set in production (bench/load, JSON show: 20 headers instead of 14).
  const part = hsts ? headerPart({ "strict-transport-security": hsts }) : undefined;
  const redirect = phased({
    before: (c) => {
      if (part) setHeaders(c, part);
      if (isSecureRequest(c)) return undefined;
      const host = configuredAppUrl()?.host ?? requestHost(c);
      if (host === undefined) throw new HttpError(400, "invalid Host header");
      const status = c.req.method === "GET" || c.req.method === "HEAD" ? 301 : 308;
      return c.redirect(`https://${host}${requestTarget(c)}`, status);
    },
  });
  // The health route (`app.healthCheck`) is probed over plain HTTP: never redirected.
  return outsideHealthChecks(redirect);
}
