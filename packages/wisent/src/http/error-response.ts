import type { Context } from "hono";
import { html } from "hono/html";
import { HTTPException } from "hono/http-exception";
import { HttpError } from "../base/http-error.js";
import { RETRY_AFTER_SECONDS, UnavailableError } from "../base/unavailable-error.js";
import { WisentError } from "../base/wisent-error.js";
import { currentEnv } from "../config/settings.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import { NoRouteError } from "./no-route.js";
import "./context-vars.js";
import { cspNonce } from "./csp-nonce.js";
import { formatVariesOnAccept, negotiateFormat } from "./format.js";
import { loggedPath } from "./logged-path.js";
import { sharedLogger } from "./logger.js";
import type { Format } from "./media-types.js";
import { PROBLEM_JSON, problemDetails, wantsProblemDetails } from "./problem-details.js";
import { noRoutePage } from "./routes-page.js";
import { statusText } from "./status-text.js";
import { toXml, xmlDocument } from "./xml.js";

export { statusText };

interface Described {
  status: number;
  message: string;
  headers: Headers;
  validation?: ValidationErrors;
  /** The client's error or a service's (a 4xx, a 503): answered as it is, never a logged 500. */
  expected: boolean;
  /** The stable code of a WisentError (`E_ROUTE_NOT_FOUND`), shown beside the status. */
  code?: string;
  /** A service the app depends on failed: its own log line, with the request's fields. */
  unavailable?: UnavailableError;
}

/** The field errors a WisentError carries: its own, or its `errors` (a model's, a constraint's). */
function fieldErrors(err: WisentError): ValidationErrors | undefined {
  if (err instanceof ValidationErrors) return err;
  const errors = (err as { errors?: unknown }).errors;
  return errors instanceof ValidationErrors ? errors : undefined;
}

/**
 * A WisentError answers the status its code's row in the error table gives (an HttpError its
 * own): the message is the client's for a 4xx and for an HttpError, which is written for the
 * client; a service's failure (an UnavailableError) says only what to wait for; any other 5xx
 * is logged and shown as its status text.
 */
function describeWisentError(err: WisentError, status: number): Described {
  const validation = fieldErrors(err);
  const headers = new Headers(err instanceof HttpError ? err.headers : undefined);
  const code = err.code;
  if (err instanceof UnavailableError) {
    headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return { status, message: err.shown, headers, expected: true, code, unavailable: err };
  }
  const expected = status < 500 || err instanceof HttpError;
  const message = validation && !(err instanceof HttpError) ? "validation failed" : err.message;
  if (!expected) return { status, message: statusText(status), headers, expected };
  return { status, message, headers, ...(validation ? { validation } : {}), expected, code };
}

function describe(err: unknown): Described {
  if (err instanceof WisentError && err.status !== undefined) {
    return describeWisentError(err, err.status);
  }
  if (err instanceof HTTPException) {
    const headers = new Headers(err.res?.headers);
    headers.delete("content-type");
    headers.delete("content-length");
    return {
      status: err.status,
      message: err.message || statusText(err.status),
      headers,
      expected: true,
    };
  }
  return { status: 500, message: "Internal Server Error", headers: new Headers(), expected: false };
}

function formatFor(c: Context): Format {
  try {
    return negotiateFormat(c);
  } catch {
    return c.get("wisent")?.api ? "json" : "html";
  }
}

function traceOf(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

/**
 * Renders any error in the client's format; use it as Hono's `onError`. `HttpError` (and Hono's
 * `HTTPException`) keep their status, message and headers; any other `WisentError` answers the
 * status of its code's row in the error table (`ValidationErrors` and a taken unique value 422
 * with the field errors, a value the database refused 400, the database down 503 with
 * `Retry-After`); the JSON body's `code` (XML's `code` attribute) is the HTTP status and `error_code` (XML's
 * `<error_code>`) the stable code.
 * Anything else is a 500 whose details are logged with the request id and, outside
 * development, never shown. Development adds a 500's `trace` (JSON/XML) or stack (HTML); other
 * errors never carry one. In development a request no route matched gets a page listing the
 * app's routes (HTML); elsewhere, and in JSON, a plain 404. The App installs it; a plain Hono
 * app can use it too.
 *
 * @param err - whatever was thrown
 * @param c - the request's context
 * @returns the error's response, in the format the client accepts
 * @example
 * hono.onError(errorResponse);
 * // GET /nope.json -> 404 {"error":"path not found: GET /nope/","code":404,"error_code":"E_ROUTE_NOT_FOUND"}
 */
export function errorResponse(err: unknown, c: Context): Response | Promise<Response> {
  const {
    status,
    message: shown,
    headers,
    validation,
    expected,
    code,
    unavailable,
  } = describe(err);
  // A 204 (OPTIONS' answer, see the App's routing error) has no body in any format.
  if (status === 204) return new Response(null, { status, headers });
  const env = c.get("wisent")?.env ?? currentEnv();
  const development = env === "development";
  let message = shown;
  if (unavailable) {
    const { msg, ...fields } = unavailable.log;
    (c.get("logger") ?? sharedLogger()).error({
      msg,
      request_id: c.get("requestId"),
      method: c.req.method,
      path: loggedPath(c),
      ...fields,
    });
  }
  if (!expected) {
    const logger = c.get("logger") ?? sharedLogger();
    logger.error({
      msg: "unhandled error",
      request_id: c.get("requestId"),
      method: c.req.method,
      path: loggedPath(c),
      error: err instanceof Error ? err.message : String(err),
      trace: traceOf(err),
    });
    if (development && err instanceof Error) message = err.message;
  }
  // Only an unexpected error (a 500) has a trace worth showing: a 404, a 422 or a refused value
  // is the client's, and its stack would only show the framework's insides.
  const trace = development && !expected ? traceOf(err) : undefined;
  const format = formatFor(c);
  if (formatVariesOnAccept(c)) headers.set("Vary", "Accept");

  let body: string;
  if (format === "json" && wantsProblemDetails(c)) {
    // RFC 9457, for a client that asked for it; the default JSON shape stays `{ error, code }`.
    headers.set("Content-Type", PROBLEM_JSON);
    const problem = validation
      ? problemDetails(status, statusText(status), message, validation.errors)
      : problemDetails(status, statusText(status), message);
    body = JSON.stringify({
      ...problem,
      ...(code !== undefined && { error_code: code }),
      ...(trace !== undefined && { trace }),
    });
  } else if (format === "json") {
    headers.set("Content-Type", "application/json; charset=UTF-8");
    // `code` is the HTTP status, as it always was; `error_code` the stable code of a WisentError.
    const shape: Record<string, unknown> = { error: message };
    if (trace !== undefined) shape.trace = trace;
    shape.code = status;
    if (code !== undefined) shape.error_code = code;
    body = validation ? JSON.stringify(validation) : JSON.stringify(shape);
  } else if (format === "xml") {
    headers.set("Content-Type", "application/xml; charset=UTF-8");
    body = validation
      ? toXml(validation, "errors")
      : xmlDocument({ response: { "@_code": status, error: message, error_code: code, trace } });
  } else {
    headers.set("Content-Type", "text/html; charset=UTF-8");
    const runtime = c.get("wisent");
    if (development && err instanceof NoRouteError && runtime) {
      const stylesheet = runtime.api ? undefined : "/assets/application.css";
      return noRoutePage(message, runtime.routes(), stylesheet).then(
        (page) => new Response(page, { status, headers }),
      );
    }
    if (trace !== undefined && err instanceof Error && runtime?.devErrorPage) {
      const plain = () => htmlPage(status, message, validation, trace, cspNonce(c));
      return runtime.devErrorPage(err, c, status, `${status} ${statusText(status)}`).then(
        ({ html: page, csp }) => {
          if (csp) headers.set("Content-Security-Policy", csp);
          return new Response(page, { status, headers });
        },
        // The page failing must not hide the error: the plain page with its stack instead.
        () => plain().then((page) => new Response(page, { status, headers })),
      );
    }
    return htmlPage(status, message, validation, trace, cspNonce(c)).then(
      (page) => new Response(page, { status, headers }),
    );
  }
  return new Response(body, { status, headers });
}

async function htmlPage(
  status: number,
  message: string,
  validation: ValidationErrors | undefined,
  trace: string | undefined,
  nonce: string | undefined,
): Promise<string> {
  const title = `${status} ${statusText(status)}`;
  const fields = validation
    ? html`<ul>${Object.entries(validation.errors).flatMap(([field, messages]) =>
        messages.map((m) => html`<li><strong>${field}</strong>: ${m}</li>`),
      )}</ul>`
    : "";
  const stack = trace ? html`<pre>${trace}</pre>` : "";
  const page = html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>
<style${nonce ? html` nonce="${nonce}"` : ""}>body{font-family:system-ui,sans-serif;max-width:48rem;margin:4rem auto;padding:0 1rem;color:#222}pre{background:#f4f4f4;padding:1rem;overflow:auto}</style>
</head>
<body><h1>${title}</h1><p>${message}</p>${fields}${stack}</body>
</html>`;
  return String(await page);
}
