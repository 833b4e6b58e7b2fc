import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { DEFAULT_CACHE_CONTROL, defaultCacheControl } from "../../http/cache-control.js";
import { cspNonce, expectCspNonce } from "../../http/csp-nonce.js";
import { phased } from "../../kernel/compose.js";
import { headerPart, removeHeader, setHeaders } from "../../kernel/response-headers.js";

type HonoOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/** CSP directives by camelCase name (`scriptSrc`, `frameAncestors`), as Hono's `secureHeaders` takes them. */
export type ContentSecurityPolicy = NonNullable<HonoOptions["contentSecurityPolicy"]>;

/**
 * Permissions-Policy features by camelCase name (`camera`, `displayCapture`), as Hono's
 * `secureHeaders` takes them: `false` or `[]` for none (`camera=()`), `true` or `["*"]` for any
 * origin, or a list of origins (`["self", "https://pay.example"]`).
 */
export type PermissionsPolicy = NonNullable<HonoOptions["permissionsPolicy"]>;

/**
 * Options of {@link securityHeaders}: Hono's `secureHeaders` options, with the CSP and the
 * Permissions-Policy merged over Wisent's.
 */
export interface SecurityHeadersOptions
  extends Omit<HonoOptions, "contentSecurityPolicy" | "permissionsPolicy"> {
  /**
   * Directives merged over {@link DEFAULT_CONTENT_SECURITY_POLICY} (a directive given here
   * replaces the default one); `false` sends no Content-Security-Policy.
   */
  contentSecurityPolicy?: ContentSecurityPolicy | false;
  /**
   * Features merged over {@link DEFAULT_PERMISSIONS_POLICY} (a feature given here replaces the
   * default one: `{ geolocation: ["self"] }` lets the app's own pages ask for the position);
   * `false` sends no Permissions-Policy.
   */
  permissionsPolicy?: PermissionsPolicy | false;
  /**
   * Cache-Control of every dynamic answer that sets none itself: default `private, no-cache`
   * (answers with a session cookie or a CSRF token get `no-store` from `session()`/`csrf()`);
   * `false` sends none. A route chooses its own with `c.header("Cache-Control", ...)`.
   */
  cacheControl?: string | false;
  /**
   * A fresh nonce a request in `script-src` and `style-src` (default `true`): the layout's
   * `<CspNonceMeta />` hands it to Turbo, htmx and the app's own inline `<script nonce>` and
   * `<style nonce>` (`cspNonce(c)`), so none of them needs `'unsafe-inline'`. Browsers that
   * know nonces then ignore `'unsafe-inline'` in `style-src`, so when it has one,
   * `style-src-attr 'unsafe-inline'` is added to keep `style="..."` attributes working.
   */
  nonce?: boolean;
}

/**
 * The default Content-Security-Policy: everything from the app's own origin, no plugins, no
 * framing, forms post only to the app. Scripts must be files or carry the request's nonce (no
 * other inline `<script>`, no `eval`); `<style>` elements likewise (`'unsafe-inline'` is only
 * the fallback of browsers that know no nonces); `style="..."` attributes are allowed, as
 * server-rendered pages use them.
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
 * The default Permissions-Policy of pages: the powerful browser features a page of a typical app
 * never uses are off for it and for every frame it embeds (camera, microphone, position, screen
 * capture, payment, motion sensors, USB/serial/HID/MIDI devices, VR, interest-based ads), so that
 * an injected script or an embedded third-party frame cannot prompt for them. Features that
 * ordinary pages use (fullscreen video, autoplay, clipboard) keep the browser's default. Give
 * one back with `securityHeaders({ permissionsPolicy: { camera: ["self"] } })`.
 */
export const DEFAULT_PERMISSIONS_POLICY: Readonly<PermissionsPolicy> = Object.freeze({
  accelerometer: false,
  browsingTopics: false,
  camera: false,
  displayCapture: false,
  geolocation: false,
  gyroscope: false,
  hid: false,
  magnetometer: false,
  microphone: false,
  midi: false,
  payment: false,
  serial: false,
  usb: false,
  xrSpatialTracking: false,
});

/** Stands for the request's nonce in the policy worked out once (see {@link securityHeaders}). */
const NONCE_MARK = "'nonce-\u0000'";
/** The directives that get the nonce. */
const NONCED = new Set(["scriptSrc", "styleSrc"]);

/**
 * Security headers on every response, through Hono's `secureHeaders`: a Content-Security-Policy
 * (see {@link DEFAULT_CONTENT_SECURITY_POLICY}), `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: strict-origin-when-cross-origin`, `X-Frame-Options: DENY` (with CSP
 * `frame-ancestors 'none'`), `Cross-Origin-Opener-Policy`/`-Resource-Policy: same-origin`, a
 * restrictive `Permissions-Policy` on pages (see {@link DEFAULT_PERMISSIONS_POLICY}), no
 * `X-Powered-By`, and `Cache-Control: private, no-cache` on answers that set none (see
 * `cacheControl`). HSTS is left to `forceSSL()`, which knows when the app is behind HTTPS. Put
 * it first, so redirects and error pages get the headers too.
 *
 * @param options - Hono's `secureHeaders` options (the `contentSecurityPolicy` merged over the
 *   default), `cacheControl` (`false`: none) and `nonce` (`false`: no per-request CSP nonce)
 * @returns the middleware
 * @example
 * app.use(securityHeaders());
 * app.use(securityHeaders({ contentSecurityPolicy: { imgSrc: ["'self'", "https://cdn.example"] } }));
 * app.use(securityHeaders({ permissionsPolicy: { geolocation: ["self"] } }));
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): MiddlewareHandler {
  const { cacheControl = DEFAULT_CACHE_CONTROL, nonce = true, ...secure } = options;
  const honoOptions = honoSecureHeadersOptions(secure);
  const fixed = fixedHeaders(honoOptions, nonce);
  if (!fixed) {
    const hono = secureHeaders(honoOptions);
    if (cacheControl === false) return hono;
    return async (c, next) => {
      await hono(c, next);
      defaultCacheControl(c, cacheControl);
    };
  }
  const removePoweredBy = Boolean({ removePoweredBy: true, ...honoOptions }.removePoweredBy);
  const cache: Record<string, string> =
    cacheControl === false ? {} : { "cache-control": cacheControl };
  const pageHeaders = Object.fromEntries(fixed.map(([name, value]) => [name.toLowerCase(), value]));
  const data: Readonly<Record<string, string>> = { ...dataHeaders(fixed), ...cache };
  // The policy around its nonce: the page part is made when an HTML answer is (with the nonce,
  // made then or when the page read it), the data part once (a JSON or XML answer's CSP loads
  // nothing, so it needs no nonce, and none is made: bench/load/ab-instructions.mjs, JSON show).
  const policy = pageHeaders["content-security-policy"]?.split(NONCE_MARK);
  const nonced = policy !== undefined && policy.length > 1;
  if (nonced) delete pageHeaders["content-security-policy"];
  // On a JSON or XML answer the data set; a Cache-Control or CSP the answer chose stays (the
  // development error page's own CSP, with no nonce added).
  const part = headerPart({ ...pageHeaders, ...cache }, { data, keep: chosenByAnswer });
  const noncePart = nonced
    ? headerPart(
        {},
        {
          data: NO_HEADERS,
          keep: chosenByAnswer,
          page: (c) => ({
            "content-security-policy": policy.join(`'nonce-${cspNonce(c)}'`),
          }),
        },
      )
    : undefined;
  return phased({
    before: (c) => {
      setHeaders(c, part);
      if (noncePart === undefined) return;
      expectCspNonce(c);
      setHeaders(c, noncePart);
    },
    after: removePoweredBy ? (c) => removeHeader(c, "x-powered-by") : undefined,
  });
}

const NO_HEADERS: Record<string, string> = {};

/**
 * Hono's `secureHeaders` options for Wisent's: its defaults (Referrer-Policy, X-Frame-Options
 * DENY, no HSTS) under the given options, the CSP merged over {@link DEFAULT_CONTENT_SECURITY_POLICY}.
 */
export function honoSecureHeadersOptions(options: SecurityHeadersOptions): HonoOptions {
  const { contentSecurityPolicy, permissionsPolicy, ...rest } = options;
  return {
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    strictTransportSecurity: false,
    ...rest,
    ...(contentSecurityPolicy === false
      ? {}
      : {
          contentSecurityPolicy: { ...DEFAULT_CONTENT_SECURITY_POLICY, ...contentSecurityPolicy },
        }),
    ...(permissionsPolicy === false
      ? {}
      : { permissionsPolicy: { ...DEFAULT_PERMISSIONS_POLICY, ...permissionsPolicy } }),
  };
}

/** Hono's headers, their option names and default values (as `secureHeaders` has them). */
const HEADERS: readonly (readonly [keyof HonoOptions, string, string, boolean])[] = [
  ["crossOriginEmbedderPolicy", "Cross-Origin-Embedder-Policy", "require-corp", false],
  ["crossOriginResourcePolicy", "Cross-Origin-Resource-Policy", "same-origin", true],
  ["crossOriginOpenerPolicy", "Cross-Origin-Opener-Policy", "same-origin", true],
  ["originAgentCluster", "Origin-Agent-Cluster", "?1", true],
  ["referrerPolicy", "Referrer-Policy", "no-referrer", true],
  [
    "strictTransportSecurity",
    "Strict-Transport-Security",
    "max-age=15552000; includeSubDomains",
    true,
  ],
  ["xContentTypeOptions", "X-Content-Type-Options", "nosniff", true],
  ["xDnsPrefetchControl", "X-DNS-Prefetch-Control", "off", true],
  ["xDownloadOptions", "X-Download-Options", "noopen", true],
  ["xFrameOptions", "X-Frame-Options", "SAMEORIGIN", true],
  ["xPermittedCrossDomainPolicies", "X-Permitted-Cross-Domain-Policies", "none", true],
  ["xXssProtection", "X-XSS-Protection", "0", true],
];
const FIXED_OPTIONS = new Set<string>([
  ...HEADERS.map(([option]) => option),
  "contentSecurityPolicy",
  "permissionsPolicy",
  "removePoweredBy",
  "overwrite",
]);

/**
 * The headers Hono's `secureHeaders` would set on every response, worked out once; undefined
 * when they can vary per request or need Hono's own code (a nonce or other function in the CSP,
 * `overwrite: false`, report-only CSP, reporting endpoints).
 */
function fixedHeaders(options: HonoOptions, nonce: boolean): [string, string][] | undefined {
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && !FIXED_OPTIONS.has(key)) return undefined;
  }
  if (options.overwrite === false) return undefined;
  const headers: [string, string][] = [];
  for (const [option, name, value, onByDefault] of HEADERS) {
    // As Hono merges options over its defaults: a key given as undefined turns the header off.
    const given = (option in options ? options[option] : onByDefault) as boolean | string;
    if (!given) continue;
    headers.push([name, typeof given === "string" ? given : value]);
  }
  const csp = options.contentSecurityPolicy;
  if (csp) {
    const directives: string[] = [];
    for (const [directive, value] of Object.entries(csp)) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v !== "string")) return undefined;
      const mark = nonce && NONCED.has(directive) ? [NONCE_MARK] : [];
      directives.push([kebab(directive), ...values, ...mark].join(" "));
    }
    // A nonce makes browsers ignore style-src's 'unsafe-inline': attributes keep what it allowed.
    const styles = csp.styleSrc;
    if (nonce && Array.isArray(styles) && styles.includes("'unsafe-inline'") && !csp.styleSrcAttr) {
      directives.push("style-src-attr 'unsafe-inline'");
    }
    headers.push(["Content-Security-Policy", directives.join("; ")]);
  }
  const permissions =
    options.permissionsPolicy && permissionsPolicyValue(options.permissionsPolicy);
  if (permissions) headers.push(["Permissions-Policy", permissions]);
  return headers;
}

/** The Permissions-Policy header's value, spelt as Hono's `secureHeaders` spells it. */
function permissionsPolicyValue(policy: PermissionsPolicy): string {
  const items: string[] = [];
  for (const [feature, value] of Object.entries(policy)) {
    const name = feature.replace(/([a-z\d])([A-Z])/g, "$1-$2").toLowerCase();
    if (typeof value === "boolean") items.push(`${name}=${value ? "*" : "()"}`);
    else if (Array.isArray(value)) {
      const origins = value as string[];
      if (origins.length === 0 || (origins.length === 1 && origins[0] === "none")) {
        items.push(`${name}=()`);
      } else if (origins.length === 1 && origins[0] === "*") items.push(`${name}=*`);
      else {
        const list = origins.map((o) => (o === "self" || o === "src" ? o : `"${o}"`));
        items.push(`${name}=(${list.join(" ")})`);
      }
    }
  }
  return items.join(", ");
}

/** The fields an answer may choose itself, kept as it chose them. */
function chosenByAnswer(name: string): boolean {
  return name === "cache-control" || name === "content-security-policy";
}

/** The headers that mean something on a JSON or XML answer (OWASP's REST Security sheet). */
const DATA_HEADERS = new Set([
  "cross-origin-resource-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
]);

/**
 * The security headers of a JSON or XML answer made by `c.respond`: nosniff, the resource
 * policy, HSTS and framing as for pages, and for a CSP the data one (nothing loads, nothing
 * frames it); the page-only ones (Referrer-Policy, Cross-Origin-Opener-Policy, X-XSS-Protection,
 * X-DNS-Prefetch-Control, ...) are left out. About 400 of 900 header bytes fewer a JSON answer
 * (bench/load, JSON show).
 */
function dataHeaders(fixed: readonly [string, string][]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of fixed) {
    const lower = name.toLowerCase();
    if (DATA_HEADERS.has(lower)) headers[lower] = value;
    else if (lower === "content-security-policy") {
      headers[lower] = "default-src 'none'; frame-ancestors 'none'";
    }
  }
  return headers;
}

/** `frameAncestors` -> `frame-ancestors`, as Hono spells directives. */
function kebab(directive: string): string {
  return directive.replace(/[A-Z]+(?![a-z])|[A-Z]/g, (match, offset: number) =>
    offset ? `-${match.toLowerCase()}` : match.toLowerCase(),
  );
}
