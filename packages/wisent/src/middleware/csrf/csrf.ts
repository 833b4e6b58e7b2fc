import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../base/http-error.js";
import { WisentError } from "../../base/wisent-error.js";
import { isValidHost, requestAppUrl, requestHost, requestScheme } from "../../http/app-url.js";
import { rawFormField } from "../../http/body.js";
import { preferNoStore } from "../../http/cache-control.js";
import { forwardedHost } from "../../http/client-address.js";
import { noRouteMatched } from "../../http/no-route.js";
import { addPageHooks, type PageHooks } from "../../http/page.js";
import { requestHeader } from "../../http/request-header.js";
import { phased } from "../../kernel/compose.js";
import { bringsContextMethods, contextExtension } from "../../kernel/context-extensions.js";
import { needsBefore } from "../../kernel/middleware-needs.js";
import { hasSessionCookie } from "../session/session.js";
import { maskCsrfToken, newCsrfSecret, verifyCsrfToken } from "./csrf-token.js";

/** Session key of the per-session secret, and the form field of the token (Buffalo's names). */
export const CSRF_FIELD = "authenticity_token";
/** Request header carrying the token for scripts. */
export const CSRF_HEADER = "X-CSRF-Token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

declare module "hono" {
  interface Context {
    /**
     * A masked CSRF token for this session (a new mask on each call); put it in forms as
     * `authenticity_token` or send it as `X-CSRF-Token`. Makes the page uncacheable
     * (`Cache-Control: no-store`), since the token is this session's alone.
     * @returns the masked token
     * @throws WisentError `E_APP_MISCONFIGURED` when the app does not use `session()`
     */
    csrfToken(): string;
  }
}

function csrfToken(this: Context): string {
  const store = this.get("session");
  if (!store)
    throw new WisentError("E_APP_MISCONFIGURED", "c.csrfToken() needs the session() middleware");
  let secret = store.get<string>(CSRF_FIELD);
  if (typeof secret !== "string") {
    secret = newCsrfSecret();
    store.set(CSRF_FIELD, secret);
  }
  // A page carrying a token is this session's alone: no cache may keep it.
  preferNoStore(this);
  return maskCsrfToken(secret);
}

/** `c.csrfToken`, brought by {@link csrf} (installed by the App, see kernel/context-extensions.ts). */
export const csrfTokenExtension = contextExtension("csrfToken", csrfToken);

function forbidden(message: string): HttpError {
  return new HttpError(403, message);
}

/**
 * The app's own origin, `scheme://host[:port]` as a browser spells it in `Origin` (default ports
 * dropped): `APP_URL`'s, else the request's scheme and its host, each as a trusted proxy
 * reported it (`X-Forwarded-Proto`, `X-Forwarded-Host`), else its own.
 */
function ownOrigin(c: Context): string | undefined {
  const configured = requestAppUrl(c);
  if (configured) return configured.origin;
  const forwarded = forwardedHost(c);
  const host = forwarded && isValidHost(forwarded) ? forwarded : requestHost(c);
  if (host === undefined) return undefined;
  try {
    return new URL(`${requestScheme(c)}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a request a browser marked as coming from another origin: `Origin` must be the app's
 * own (scheme, host and port), `Origin: null` and `Sec-Fetch-Site: cross-site` are refused.
 * True when the request proved it is same-origin (`Sec-Fetch-Site: same-origin` or a matching
 * `Origin`); false when it said nothing either way (an old browser, a script).
 */
function checkSameOrigin(c: Context): boolean {
  const site = requestHeader(c, "sec-fetch-site")?.toLowerCase();
  if (site === "cross-site") {
    throw forbidden("cross-site request refused (Sec-Fetch-Site: cross-site)");
  }
  const origin = requestHeader(c, "origin");
  if (!origin) return site === "same-origin";
  if (origin === "null") throw forbidden("cross-site request refused (Origin: null)");
  let given: string;
  try {
    given = new URL(origin).origin;
  } catch {
    throw forbidden(`cross-site request refused (malformed Origin: ${origin})`);
  }
  const own = ownOrigin(c);
  if (given !== own) {
    throw forbidden(
      `cross-site request refused (Origin ${origin} is not the app's origin ${own ?? "(invalid Host)"})`,
    );
  }
  return true;
}

/** The token in the query string (`?authenticity_token=...`), if the URL has one. */
function queryToken(c: Context): string | undefined {
  if (!c.req.raw.url.includes(CSRF_FIELD)) return undefined;
  return c.req.query(CSRF_FIELD) || undefined;
}

/** Form bodies: what a cross-site HTML form can send, so they always need the token. */
function isFormBody(contentType: string): boolean {
  const type = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
}

/**
 * CSRF protection (docs/security.md), on every unsafe method of a matched route:
 *
 * 1. Origin: an `Origin` that is not the app's own (scheme, host and port; `APP_URL`'s, else
 *    the request's with the proxy's scheme), `Origin: null` and `Sec-Fetch-Site: cross-site` are
 *    refused, even with a valid token.
 * 2. Form bodies (`application/x-www-form-urlencoded`, `multipart/form-data`) need the session's
 *    token, in the `authenticity_token` field, the `X-CSRF-Token` header or the query string's
 *    `authenticity_token` (as Rails and Laravel take it from any parameter).
 * 3. Every other body (JSON, XML, `+json`, text, none), alike: a request carrying the session
 *    cookie needs a valid `X-CSRF-Token` header (the generated `application.js` adds it to
 *    same-origin `fetch` calls) or proof of same origin (`Sec-Fetch-Site: same-origin`, or an
 *    `Origin` equal to the app's). Without the session cookie there is nothing to forge (a
 *    script, an API client, a test): it passes.
 *
 * Failures are 403 with the reason. A request no route matched is not checked: it gets its 404
 * or 405 (see `noRouteMatched`). Needs `session()` before it.
 *
 * @returns the middleware; it brings `c.csrfToken()`
 * @throws WisentError `E_APP_MISCONFIGURED` (when given to `app.use`) naming `session()` when it is not before it
 * @throws HttpError 403 (`E_HTTP`), from the middleware, naming the reason: a cross-site
 *   `Origin` or `Sec-Fetch-Site`, a missing or invalid token
 * @example
 * app.use(session());
 * app.use(csrf());
 */
export function csrf(): MiddlewareHandler {
  const middleware = bringsContextMethods(phased({ before: checkCsrf }), [csrfTokenExtension]);
  return needsBefore(
    middleware,
    "csrf()",
    "session()",
    "app.use(session()) before app.use(csrf())",
  );
}

/** A token is masked only when a page asks for one (`<CsrfMeta />`, `<CsrfField />`). */
const CSRF_HOOKS: PageHooks = { csrfToken: (c) => c.csrfToken() };

function checkCsrf(c: Context): Promise<void> | undefined {
  const store = c.get("session");
  if (!store)
    throw new WisentError("E_APP_MISCONFIGURED", "csrf() needs the session() middleware before it");
  addPageHooks(c, CSRF_HOOKS);
  if (SAFE_METHODS.has(c.req.method)) return undefined;
  // No route matched (a 404 or 405 is on its way): CSRF protects actions, and there is none to
  // forge, so the client learns the route does not exist rather than getting a 403 (Rails
  // answers an unknown POST with its routing error). Nothing is read or written for it.
  if (noRouteMatched(c)) return undefined;

  // Every unsafe request, token or not: a cross-site page must not replay a token it obtained
  // (Rails' forgery_protection_origin_check).
  const sameOrigin = checkSameOrigin(c);
  const contentType = requestHeader(c, "content-type") ?? "";
  const form = isFormBody(contentType);
  // Not a form: the one rule for every other body (see csrf()).
  if (!form && (sameOrigin || !hasSessionCookie(c))) return undefined;

  const verify = (token: string | undefined) => {
    if (!token) throw forbidden("CSRF token not found in request");
    const secret = store.get<string>(CSRF_FIELD);
    if (typeof secret !== "string" || !verifyCsrfToken(token, secret)) {
      throw forbidden("CSRF token invalid");
    }
  };
  // The header, else the query string's `authenticity_token` (htmx's `hx-vals` on a DELETE, a
  // form's action URL; Rails and Laravel take the token from any parameter), else the form's.
  const given = requestHeader(c, CSRF_HEADER.toLowerCase()) ?? queryToken(c);
  if (given !== undefined || !form) {
    if (given === undefined) {
      throw forbidden(
        `CSRF token not found: a request carrying the session cookie with a body that is not a form needs the ${CSRF_HEADER} header (or ?${CSRF_FIELD}=) or proof of same origin (Origin or Sec-Fetch-Site: same-origin)`,
      );
    }
    verify(given);
    return undefined;
  }
  return rawFormField(c, CSRF_FIELD).then(verify);
}
