import type { Context } from "hono";
import { html } from "hono/html";
import { HTTPException } from "hono/http-exception";
import { currentEnv } from "../config/settings.js";
import { type ConstraintViolation, constraintViolation } from "../data/constraint-violation.js";
import {
  isDatabaseUnavailable,
  isMissingDatabase,
  MISSING_DATABASE_HINT,
} from "../data/database-unavailable.js";
import { isInvalidDatabaseValue } from "../data/invalid-value.js";
import { StorageWriteError } from "../storage/storage-write-error.js";
import { humanizeField } from "../validation/validation.js";
import { NoRouteError } from "./no-route.js";
import "./context-vars.js";
import { HttpError } from "../base/http-error.js";
import { ValidationErrors } from "../validation/validation-errors.js";
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
  expected: boolean;
  /** The database is down or unreachable: a 503 that is logged, never a 500. */
  unavailable?: boolean;
  /** The file storage refused a write: a 503 logged with the path, the cause and the setting. */
  storage?: StorageWriteError;
}

/** What a client sees while the database is down; `Retry-After` says when to try again. */
const UNAVAILABLE = "database unavailable: please try again shortly";

function describe(err: unknown): Described {
  if (err instanceof HttpError) {
    // A model's ValidationFailedError carries its field errors: shown as a returned 422's are.
    const errors = (err as { errors?: unknown }).errors;
    return {
      status: err.status,
      message: err.message,
      headers: new Headers(err.headers),
      ...(errors instanceof ValidationErrors ? { validation: errors } : {}),
      expected: true,
    };
  }
  if (err instanceof ValidationErrors) {
    return {
      status: 422,
      message: "validation failed",
      headers: new Headers(),
      validation: err,
      expected: true,
    };
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
  const violation = constraintViolation(err);
  if (violation) return violationDescribed(violation);
  if (isInvalidDatabaseValue(err)) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      status: 400,
      message: `the database refused a value: ${why}`,
      headers: new Headers(),
      expected: true,
    };
  }
  if (err instanceof StorageWriteError) {
    return {
      status: 503,
      message: "file storage unavailable: please try again shortly",
      headers: new Headers({ "Retry-After": "5" }),
      expected: true,
      storage: err,
    };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      message: UNAVAILABLE,
      headers: new Headers({ "Retry-After": "5" }),
      expected: true,
      unavailable: true,
    };
  }
  return { status: 500, message: "Internal Server Error", headers: new Headers(), expected: false };
}

/**
 * A constraint error no model caught (a query written by hand): a 422 naming the column for a
 * taken value or a missing parent, a 409 for a delete that rows still point to.
 */
function violationDescribed(violation: ConstraintViolation): Described {
  if (violation.kind === "referenced") {
    return {
      status: 409,
      message: "the record is still referenced by other records",
      headers: new Headers(),
      expected: true,
    };
  }
  // A unique index on several columns names the scope first (`user_id, name`): the field is last.
  const field =
    (violation.kind === "unique" ? violation.columns.at(-1) : violation.columns[0]) ?? "base";
  const what = field === "base" ? "A value" : humanizeField(field);
  const validation = new ValidationErrors({
    [field]: [
      violation.kind === "unique" ? `${what} has already been taken.` : `${what} must exist.`,
    ],
  });
  return {
    status: 422,
    message: "validation failed",
    headers: new Headers(),
    validation,
    expected: true,
  };
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
 * `HTTPException`) keep their status, message and headers; `ValidationErrors` answer 422 with the
 * field errors; anything else is a 500 whose details are logged with the request id and, outside
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
 * // GET /nope.json -> 404 {"error":"path not found: GET /nope/","code":404}
 */
export function errorResponse(err: unknown, c: Context): Response | Promise<Response> {
  const {
    status,
    message: shown,
    headers,
    validation,
    expected,
    unavailable,
    storage,
  } = describe(err);
  // A 204 (OPTIONS' answer, see the App's routing error) has no body in any format.
  if (status === 204) return new Response(null, { status, headers });
  const env = c.get("wisent")?.env ?? currentEnv();
  const development = env === "development";
  let message = shown;
  if (unavailable) {
    const error = err instanceof Error ? err.message || String(err) : String(err);
    (c.get("logger") ?? sharedLogger()).error({
      msg: "database unavailable",
      request_id: c.get("requestId"),
      method: c.req.method,
      path: loggedPath(c),
      error: isMissingDatabase(err) ? `${error}: ${MISSING_DATABASE_HINT}` : error,
    });
  }
  if (storage) {
    (c.get("logger") ?? sharedLogger()).error({
      msg: "storage write failed",
      request_id: c.get("requestId"),
      method: c.req.method,
      path: loggedPath(c),
      file: storage.path,
      cause: storage.reason,
      setting: storage.setting,
      error: storage.message,
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
    body = JSON.stringify(trace === undefined ? problem : { ...problem, trace });
  } else if (format === "json") {
    headers.set("Content-Type", "application/json; charset=UTF-8");
    body = validation
      ? JSON.stringify(validation)
      : JSON.stringify(
          trace === undefined
            ? { error: message, code: status }
            : { error: message, trace, code: status },
        );
  } else if (format === "xml") {
    headers.set("Content-Type", "application/xml; charset=UTF-8");
    body = validation
      ? toXml(validation, "errors")
      : xmlDocument({ response: { "@_code": status, error: message, trace } });
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
