import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

type HonoOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/** CSP directives by camelCase name (`scriptSrc`, `frameAncestors`), as Hono's `secureHeaders` takes them. */
export type ContentSecurityPolicy = NonNullable<HonoOptions["contentSecurityPolicy"]>;

/** Options of {@link securityHeaders}: Hono's `secureHeaders` options, with the CSP merged over Wisent's. */
export interface SecurityHeadersOptions extends Omit<HonoOptions, "contentSecurityPolicy"> {
  /**
   * Directives merged over {@link DEFAULT_CONTENT_SECURITY_POLICY} (a directive given here
   * replaces the default one); `false` sends no Content-Security-Policy.
   */
  contentSecurityPolicy?: ContentSecurityPolicy | false;
}

/**
 * The default Content-Security-Policy: everything from the app's own origin, no plugins, no
 * framing, forms post only to the app. Scripts must be files (no inline `<script>`, no `eval`);
 * inline styles are allowed because server-rendered pages (error pages included) use them.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY: Readonly<ContentSecurityPolicy> = Object.freeze({
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  objectSrc: ["'none'"],
  imgSrc: ["'self'", "data:"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  scriptSrc: ["'self'"],
});

/**
 * Security headers on every response, through Hono's `secureHeaders`: a Content-Security-Policy
 * (see {@link DEFAULT_CONTENT_SECURITY_POLICY}), `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: strict-origin-when-cross-origin`, `X-Frame-Options: DENY` (with CSP
 * `frame-ancestors 'none'`), `Cross-Origin-Opener-Policy`/`-Resource-Policy: same-origin`, and
 * no `X-Powered-By`. HSTS is left to `forceSSL({ hsts: true })`, which knows when the app is
 * behind HTTPS. Put it first, so redirects and error pages get the headers too.
 *
 * @example
 * app.use(securityHeaders());
 * app.use(securityHeaders({ contentSecurityPolicy: { imgSrc: ["'self'", "https://cdn.example"] } }));
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  const { contentSecurityPolicy, ...rest } = options;
  return secureHeaders({
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    strictTransportSecurity: false,
    ...rest,
    ...(contentSecurityPolicy === false
      ? {}
      : {
          contentSecurityPolicy: { ...DEFAULT_CONTENT_SECURITY_POLICY, ...contentSecurityPolicy },
        }),
  });
}
