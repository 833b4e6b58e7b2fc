import { Context, type MiddlewareHandler } from "hono";
import { phased } from "../../app/compose.js";
import { noRouteMatched } from "../../app/no-route.js";
import { rawFormField } from "../../http/body.js";
import { HttpError } from "../../http/http-error.js";
import { formatOfMediaType } from "../../http/media-types.js";
import { addPageHooks, type PageHooks } from "../../http/page.js";
import "../session/session.js";
import { requestHeader } from "../../http/request-header.js";
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
     * `authenticity_token` or send it as `X-CSRF-Token`.
     */
    csrfToken(): string;
  }
}

function csrfToken(this: Context): string {
  const store = this.get("session");
  if (!store) throw new Error("c.csrfToken() needs the session() middleware");
  let secret = store.get<string>(CSRF_FIELD);
  if (typeof secret !== "string") {
    secret = newCsrfSecret();
    store.set(CSRF_FIELD, secret);
  }
  return maskCsrfToken(secret);
}

Object.defineProperty(Context.prototype, "csrfToken", {
  value: csrfToken,
  configurable: true,
  writable: true,
});

function forbidden(message: string): HttpError {
  return new HttpError(403, message);
}

/** Refuses a request a browser marked as coming from another site. */
function checkSameOrigin(c: Context): void {
  const site = requestHeader(c, "sec-fetch-site")?.toLowerCase();
  if (site === "cross-site") {
    throw forbidden("cross-site request refused (Sec-Fetch-Site: cross-site)");
  }
  const origin = requestHeader(c, "origin");
  if (!origin || origin === "null") {
    if (origin === "null") throw forbidden("cross-site request refused (Origin: null)");
    return;
  }
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw forbidden(`cross-site request refused (malformed Origin: ${origin})`);
  }
  const host =
    requestHeader(c, "x-forwarded-host") ?? requestHeader(c, "host") ?? new URL(c.req.url).host;
  if (originHost !== host) {
    throw forbidden(`cross-site request refused (Origin ${origin} does not match host ${host})`);
  }
}

/**
 * CSRF protection (DESIGN.md): a per-session secret, a masked token per page (`c.csrfToken()`,
 * `<CsrfField />`, `<CsrfMeta />`), checked on every unsafe method from the `X-CSRF-Token`
 * header or the `authenticity_token` form field. Bodies in JSON or XML need no token (browsers
 * cannot send them cross-site without CORS). A cross-site `Origin`/`Sec-Fetch-Site` is refused
 * on every unsafe method, even with a valid token. Failures are 403 with the reason. A request
 * no route matched is not checked: it gets its 404 or 405 (see `noRouteMatched`). Needs
 * `session()` before it.
 *
 * @example
 * app.use(session());
 * app.use(csrf());
 */
export function csrf(): MiddlewareHandler {
  return phased({ before: checkCsrf });
}

/** A token is masked only when a page asks for one (`<CsrfMeta />`, `<CsrfField />`). */
const CSRF_HOOKS: PageHooks = { csrfToken: (c) => c.csrfToken() };

function checkCsrf(c: Context): Promise<void> | undefined {
  const store = c.get("session");
  if (!store) throw new Error("csrf() needs the session() middleware before it");
  addPageHooks(c, CSRF_HOOKS);
  if (SAFE_METHODS.has(c.req.method)) return undefined;
  // No route matched (a 404 or 405 is on its way): CSRF protects actions, and there is none to
  // forge, so the client learns the route does not exist rather than getting a 403 (Rails
  // answers an unknown POST with its routing error). Nothing is read or written for it.
  if (noRouteMatched(c)) return undefined;

  // Every unsafe request, token or not: a cross-site page must not replay a token it obtained
  // (Rails' forgery_protection_origin_check).
  checkSameOrigin(c);
  const contentType = requestHeader(c, "content-type") ?? "";
  const bodyFormat = contentType ? formatOfMediaType(contentType) : undefined;
  if (bodyFormat === "json" || bodyFormat === "xml") return undefined;

  const verify = (token: string | undefined) => {
    if (!token) throw forbidden("CSRF token not found in request");
    const secret = store.get<string>(CSRF_FIELD);
    if (typeof secret !== "string" || !verifyCsrfToken(token, secret)) {
      throw forbidden("CSRF token invalid");
    }
  };
  const header = requestHeader(c, CSRF_HEADER.toLowerCase());
  if (header !== undefined) {
    verify(header);
    return undefined;
  }
  return rawFormField(c, CSRF_FIELD).then(verify);
}
