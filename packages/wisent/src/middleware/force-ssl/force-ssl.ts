import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../base/http-error.js";
import { isProduction } from "../../config/settings.js";
import { requestAppUrl, requestHost, requestScheme, requestTarget } from "../../http/app-url.js";
import { clientAddress } from "../../http/client-address.js";
import { outsideHealthChecks } from "../../http/health-check.js";
import { type Logger, sharedLogger } from "../../http/logger.js";
import { requestHeader } from "../../http/request-header.js";
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
  /**
   * Where the one warning goes when a request that says it came over HTTPS is redirected because
   * its peer is not in `TRUSTED_PROXIES` (behind a TLS proxy, a redirect loop); default the
   * app's logger.
   */
  logger?: Logger;
}

/** True when a forwarding header claims HTTPS, whoever wrote it. */
function claimsHttps(c: Context): boolean {
  const proto = requestHeader(c, "x-forwarded-proto");
  if (proto?.trim().toLowerCase().startsWith("https")) return true;
  return /proto="?https/i.test(requestHeader(c, "forwarded") ?? "");
}

/**
 * True when the request came over HTTPS, directly or through a trusted proxy saying so.
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
 * post stays a post). A request with `X-Forwarded-Proto: https` (or `Forwarded: proto=https`
 * under `TRUSTED_PROXY_HEADER=forwarded`) counts as secure only when its peer is one of
 * `TRUSTED_PROXIES`; from anyone else the header is ignored, and the first such request is
 * logged once, naming the peer. Sends HSTS (two years, includeSubDomains) unless `hsts: false`. It does not enable TLS itself. The health
 * route (`app.healthCheck`) is left out: load balancers probe it over plain HTTP.
 *
 * @param options - `enabled` (default: in production-like environments), `hsts` and `logger`
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
  let warned = false;
  const redirect = phased({
    before: (c) => {
      if (part) setHeaders(c, part);
      if (isSecureRequest(c)) return undefined;
      if (!warned && claimsHttps(c)) {
        warned = true;
        (options.logger ?? sharedLogger()).warn({
          msg: `forceSSL: a request from ${clientAddress(c)} says it came over HTTPS (X-Forwarded-Proto or Forwarded), but that peer is not in TRUSTED_PROXIES, so it was redirected to HTTPS. If it is your TLS proxy, add its address to TRUSTED_PROXIES (otherwise every request loops on this redirect).`,
        });
      }
      const host = requestAppUrl(c)?.host ?? requestHost(c);
      if (host === undefined) throw new HttpError(400, "invalid Host header");
      const status = c.req.method === "GET" || c.req.method === "HEAD" ? 301 : 308;
      return c.redirect(`https://${host}${requestTarget(c)}`, status);
    },
  });
  // The health route (`app.healthCheck`) is probed over plain HTTP: never redirected.
  return outsideHealthChecks(redirect);
}
