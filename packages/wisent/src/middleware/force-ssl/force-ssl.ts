import type { Context, MiddlewareHandler } from "hono";
import { passThrough, phased } from "../../app/compose.js";
import { isProduction } from "../../app/environment.js";
import { outsideHealthChecks } from "../../app/health-check.js";
import { requestHeader } from "../../http/request-header.js";

/** Options of {@link forceSSL}. */
export interface ForceSSLOptions {
  /** Redirect plain HTTP to HTTPS; default: only in production (`GO_ENV`, else `NODE_ENV`). */
  enabled?: boolean;
  /**
   * Send `Strict-Transport-Security` on HTTPS responses. `true` means one year; off by default,
   * because browsers remember it.
   */
  hsts?: boolean | { maxAge?: number; includeSubDomains?: boolean; preload?: boolean };
}

/** True when the request came over HTTPS, directly or through a proxy saying so. */
export function isSecureRequest(c: Context): boolean {
  if (c.req.url.startsWith("https:")) return true;
  const proto = requestHeader(c, "x-forwarded-proto");
  return proto?.split(",", 1)[0]?.trim().toLowerCase() === "https";
}

function hstsValue(hsts: ForceSSLOptions["hsts"]): string | undefined {
  if (!hsts) return undefined;
  const {
    maxAge = 31_536_000,
    includeSubDomains = false,
    preload = false,
  } = hsts === true ? {} : hsts;
  return [`max-age=${maxAge}`, includeSubDomains && "includeSubDomains", preload && "preload"]
    .filter(Boolean)
    .join("; ");
}

/**
 * Redirects plain-HTTP requests to their HTTPS form (same host, path and query) in production:
 * 301 for GET and HEAD, 308 for other methods (so a form post stays a post). A request with
 * `X-Forwarded-Proto: https` counts as secure. It does not enable TLS itself. The health route
 * (`app.healthCheck`) is left out: load balancers probe it over plain HTTP.
 *
 * @example
 * app.use(forceSSL({ hsts: true }));
 */
export function forceSSL(options: ForceSSLOptions = {}): MiddlewareHandler {
  const enabled = options.enabled ?? isProduction();
  const hsts = hstsValue(options.hsts);
  if (!enabled) return passThrough;
  const redirect = phased({
    before: (c) => {
      if (isSecureRequest(c)) return undefined;
      const url = new URL(c.req.url);
      url.protocol = "https:";
      const status = c.req.method === "GET" || c.req.method === "HEAD" ? 301 : 308;
      return c.redirect(url.toString(), status);
    },
    after: hsts
      ? (c) => {
          c.header("Strict-Transport-Security", hsts);
        }
      : undefined,
  });
  // The health route (`app.healthCheck`) is probed over plain HTTP: never redirected.
  return outsideHealthChecks(redirect);
}
