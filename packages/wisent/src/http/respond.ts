import type { Context, MiddlewareHandler } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import { HttpError } from "../base/http-error.js";
import type { Child, FC } from "../jsx/html.js";
import { renderToString } from "../jsx/render.js";
import { phased } from "../kernel/compose.js";
import { contextExtension } from "../kernel/context-extensions.js";
import { plainResponse } from "../kernel/plain-response.js";
import { markComplete, plainResponseHeaders } from "../kernel/response-headers.js";
import { singularize } from "../naming/index.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import { etagApplies, notModified, weakETag } from "./etag.js";
import { FORMATS, formatVariesOnAccept, negotiateFormat } from "./format.js";
import type { Format } from "./media-types.js";
import { type FlashKind, type Page, pageOf, withPage } from "./page.js";
import { PROBLEM_JSON, problemDetails, wantsProblemDetails } from "./problem-details.js";
import {
  type RedirectStatus,
  type RouteName,
  redirectResponse,
  resolveLocation,
} from "./redirect.js";
import { statusText } from "./status-text.js";
import { toXml } from "./xml.js";

/**
 * Where `c.respond`'s `redirect` sends an HTML client: a route name and its params
 * (`["widgetPath", { widget_id }]`), a route name, a path or a full URL.
 */
export type RedirectTarget =
  | RouteName
  | `/${string}`
  | `${string}://${string}`
  | readonly [name: RouteName, params?: Record<string, unknown>];

/** Flash messages by kind: `{ success: "Widget was successfully created." }`. */
export type RedirectFlash = { readonly [Kind in FlashKind]?: string };

/** What every `c.respond` call can carry besides its HTML answer. */
interface RespondCommon {
  /** The JSON body (serialised with `JSON.stringify`). */
  json?: unknown;
  /** The XML body (rendered by `toXml`, JSON field names). */
  xml?: unknown;
  /** The XML root element for one record (`widget`); lists use its plural. Default: from the route. */
  root?: string;
  /**
   * Response headers, whatever the format (e.g. `paginationHeaders(paginator, c)`).
   * Cheaper than `c.header()` before `c.respond`, which makes Hono build a `Headers` object.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * The `Location` header, whatever the format: what a 201 created (RFC 9110 15.3.2; Rails'
   * scaffold sends it). A route name and its params, or a path.
   * @example c.respond(201, { json: widget, location: ["widgetPath", { widget_id: widget.id }] })
   */
  location?: `/${string}` | readonly [name: RouteName, params?: Record<string, unknown>];
  /**
   * An error JSON and XML clients get instead of `json` and `xml`, answered as a thrown one is
   * (its code's status, `{ error, code, error_code }`, XML's `<response code>`), while HTML gets
   * the `redirect` and its flash: a refusal a browser is sent back from.
   * @example
   * // DependentRecordsError: HTML back to the widget's page, JSON and XML the 409 naming the rows
   * c.respond(409, { redirect: ["widgetPath", { widget_id }], flash: { danger: error.message }, error })
   */
  error?: Error;
}

/**
 * What `c.respond` can answer with, per format; formats left out answer 406. HTML is either a
 * page (`html`) or a redirect (`redirect`), never both.
 */
export type RespondOptions = RespondCommon &
  (
    | {
        /** The HTML view, rendered inside the app layout. */
        html?: () => Child;
        redirect?: undefined;
        flash?: undefined;
        redirectStatus?: undefined;
      }
    | {
        html?: undefined;
        /**
         * The HTML answer as a redirect instead of a page (Rails' `format.html { redirect_to }`):
         * after a form's POST, PUT or DELETE, to the page that shows the result. JSON and XML
         * clients get `status` and their body as usual.
         * @example
         * c.respond(201, { redirect: ["widgetPath", { widget_id: widget.id }], json: widget })
         */
        redirect: RedirectTarget;
        /**
         * Flash messages added when the answer is the HTML redirect, shown on the page it leads
         * to (needs `flashMessages()`).
         * @example { success: c.t("widget.updated.success") }
         */
        flash?: RedirectFlash;
        /** The redirect's status; default 303 (See Other: the browser follows it with a GET). */
        redirectStatus?: RedirectStatus;
      }
  );

/**
 * `c.flash`, which `flashMessages()` brings (a placeholder that names the missing middleware
 * until then; see app/context-methods.ts): its type is declared by that middleware, above this
 * layer.
 */
type FlashingContext = Context & { flash(kind: FlashKind, message: string): void };

/** An application layout: wraps every HTML view rendered by `c.respond`. */
export type Layout = FC<{ page: Page; children?: Child }>;

declare module "hono" {
  interface ContextVariableMap {
    /** The layout set by `layout()`. */
    layout: Layout | undefined;
  }
  interface Context {
    /**
     * Answers in the negotiated format (see `negotiateFormat`) with one call. A format the action
     * does not offer is a 406 (e.g. New/Edit, HTML only, asked for JSON). A JSON error answer
     * (status 400 or more) to a client asking for `application/problem+json` is sent as problem
     * details; a GET's JSON or XML answer carries a weak ETag, and a matching `If-None-Match`
     * gets a 304.
     *
     * @param status - the response's status
     * For HTML, `redirect` instead of `html` answers a redirect (303 unless `redirectStatus`
     * says otherwise) after adding the `flash` messages, whatever `status` the JSON and XML
     * answers get.
     *
     * @param status - the response's status (for a `redirect`: the JSON and XML answers' only)
     * @param options - one renderer per format offered (`html` or `redirect` with its `flash`,
     *   `json`, `xml`, or an `error` for both), plus `headers`, `location` and the XML `root`
     *   (see {@link RespondOptions})
     * @returns the response, in the format the client accepts best among those offered
     * @throws HttpError 406 (`E_HTTP`) when the client accepts none of the formats offered
     * @throws WisentError `E_APP_MISCONFIGURED` when `location` or `redirect` names a route
     *   that does not exist
     * @throws WisentError `E_APP_MISCONFIGURED` when a redirect's `flash` is given and the app does not use `flashMessages()`
     * @throws the `error` given, for a JSON or XML client (the App answers it)
     * @example
     * return c.respond(200, { html: () => <Show widget={widget} />, json: widget, xml: widget });
     * @example
     * // HTML: 303 to the widget's page, the flash shown there; JSON and XML: 201 and the widget.
     * return c.respond(201, {
     *   redirect: ["widgetPath", { widget_id: widget.id }],
     *   flash: { success: "Widget was successfully created." },
     *   json: widget,
     *   xml: widget,
     * });
     */
    respond(status: StatusCode, options: RespondOptions): Response | Promise<Response>;
  }
}

/**
 * Sets the layout HTML views render in (flash, CSRF meta tags and language come through its
 * `page` prop, or `usePage()`).
 *
 * @example
 * const AppLayout: Layout = ({ page, children }) => (
 *   <html lang={page.lang}><head><CsrfMeta /></head><body><RedirectFlash />{children}</body></html>
 * );
 * app.use(layout(AppLayout));
 *
 * @param component - the layout: gets the request's `page` and the view as `children`
 * @returns the middleware
 */
export function layout(component: Layout): MiddlewareHandler {
  return phased({
    before: (c) => {
      c.set("layout", component);
    },
  });
}

/** `/widgets/:widget_id/edit` -> `widget`: the last static segment that names a collection. */
function rootFromRoute(c: Context): string {
  const segments = (c.req.routePath ?? "")
    .split("/")
    .filter((s) => s && !s.startsWith(":") && s !== "*" && s !== "new" && s !== "edit");
  const last = segments.at(-1);
  return last ? singularize(last) : "response";
}

const HTML_TYPE = "text/html; charset=UTF-8";
const XML_TYPE = "application/xml; charset=UTF-8";
const JSON_TYPE = "application/json";

/** Every set of formats an action can offer, by bits (html 1, json 2, xml 4): no array a call. */
const OFFERS: readonly (readonly Format[])[] = Array.from({ length: 8 }, (_, bits) =>
  bits === 7 ? FORMATS : FORMATS.filter((_format, i) => (bits & (1 << i)) !== 0),
);

function offered(options: RespondOptions): readonly Format[] {
  return OFFERS[
    (options.html || options.redirect !== undefined ? 1 : 0) |
      (options.json !== undefined || options.error !== undefined ? 2 : 0) |
      (options.xml !== undefined || options.error !== undefined ? 4 : 0)
  ]!;
}

/** The options' headers set through Hono, for a response Hono builds. */
function setThroughHono(c: Context, headers: RespondOptions["headers"]): void {
  if (headers) for (const name in headers) c.header(name, headers[name]);
  if (formatVariesOnAccept(c)) c.header("Vary", "Accept");
}

/** A JSON or XML response: one plain header object when it can (see response-headers.ts). */
function plainOrHono(
  c: Context,
  status: StatusCode,
  body: string,
  contentType: string,
  given: RespondOptions["headers"],
): Response {
  let extra = given;
  // A GET/HEAD answer carries a weak ETag; the client's matching If-None-Match gets a 304 with
  // no body (the work before this point is done either way: the saving is the bytes).
  if (etagApplies(c, status)) {
    const etag = weakETag(body);
    extra = extra ? { ...extra, ETag: etag } : { ETag: etag };
    if (notModified(c, etag)) {
      const headers = plainResponseHeaders(c, contentType, extra);
      if (!headers) {
        setThroughHono(c, extra);
        return c.body(null, 304);
      }
      delete headers["content-type"];
      return markComplete(c, plainResponse(null, 304, headers));
    }
  }
  const headers = plainResponseHeaders(c, contentType, extra);
  if (!headers) {
    setThroughHono(c, extra);
    return c.body(body, status as 200, { "Content-Type": contentType });
  }
  return markComplete(c, plainResponse(body, status, headers));
}

/** The options with their `location` resolved into a `Location` header. */
function withLocation(c: Context, options: RespondOptions): RespondOptions {
  const location = options.location!;
  const href =
    typeof location === "string" ? location : resolveLocation(c, location[0], location[1]);
  return { ...options, headers: { ...options.headers, Location: href } };
}

/** The HTML answer of a `redirect`: its flash messages added, then the redirect. */
function redirectWithFlash(
  c: Context,
  to: RedirectTarget,
  options: {
    flash?: RedirectFlash;
    redirectStatus?: RedirectStatus;
    headers?: RespondOptions["headers"];
  },
): Response {
  const { flash, headers } = options;
  if (flash) {
    for (const kind in flash) {
      const message = flash[kind];
      if (message !== undefined) (c as FlashingContext).flash(kind, message);
    }
  }
  if (headers) for (const name in headers) c.header(name, headers[name]);
  const status = options.redirectStatus ?? 303;
  return typeof to === "string"
    ? redirectResponse(c, status, to)
    : redirectResponse(c, status, to[0], to[1]);
}

/** An error answer of `c.respond` as problem details: a 422's field errors as `errors`. */
function problemOf(status: number, json: unknown) {
  if (json instanceof ValidationErrors) {
    return problemDetails(status, statusText(status), json.message, json.errors);
  }
  const error = (json as { error?: unknown } | null)?.error;
  return problemDetails(status, statusText(status), typeof error === "string" ? error : undefined);
}

function respond(this: Context, status: StatusCode, given: RespondOptions) {
  // The best format this action answers among those the client accepts (406 when none is).
  const format = negotiateFormat(this, offered(given));
  // Rendered by the App's error answer, as if the action had thrown it: the same body and status.
  if (given.error !== undefined && format !== "html") throw given.error;
  // A redirect's own Location, not the created resource's `location`.
  if (format === "html" && given.redirect !== undefined) {
    return redirectWithFlash(this, given.redirect, given);
  }
  const options = given.location === undefined ? given : withLocation(this, given);
  if (format === "json" && options.json !== undefined) {
    if (status >= 400 && wantsProblemDetails(this)) {
      const problem = problemOf(status, options.json);
      return plainOrHono(this, status, JSON.stringify(problem), PROBLEM_JSON, options.headers);
    }
    return plainOrHono(this, status, JSON.stringify(options.json), JSON_TYPE, options.headers);
  }
  if (format === "xml" && options.xml !== undefined) {
    const body = toXml(options.xml, options.root ?? rootFromRoute(this));
    return plainOrHono(this, status, body, XML_TYPE, options.headers);
  }
  if (format === "html" && options.html) {
    const page = pageOf(this);
    const AppLayout = this.get("layout");
    const render = options.html;
    // Synchronous: the view and the layout render straight to a string (wisent/jsx).
    const html = withPage(page, () => {
      const view = render();
      return renderToString(AppLayout ? AppLayout({ page, children: view }) : view);
    });
    const extra = options.headers;
    // Undefined when headers were set through Hono (also by a component while rendering).
    const headers = plainResponseHeaders(this, HTML_TYPE, extra);
    if (!headers) {
      setThroughHono(this, extra);
      return this.html(html, status as 200);
    }
    // One plain header object, no Headers object per page (see response-headers.ts); a string
    // body, which the Node listener writes straight away.
    return markComplete(this, plainResponse(html, status, headers));
  }
  if (formatVariesOnAccept(this)) this.header("Vary", "Accept");
  throw new HttpError(406, "not acceptable: this action answers nothing");
}

/** `c.respond` (installed by the App, see kernel/context-extensions.ts). */
export const respondExtension = contextExtension("respond", respond);
