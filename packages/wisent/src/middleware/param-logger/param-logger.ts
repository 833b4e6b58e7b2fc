import type { Context, MiddlewareHandler } from "hono";
import { parsedBodyIfRead } from "../../http/body.js";
import { clientAddress } from "../../http/client-address.js";
import { outsideHealthChecks } from "../../http/health-check.js";
import {
  filterPathSegments,
  type SecretParam,
  secretPathValues,
  useSecretPathParams,
} from "../../http/logged-path.js";
import { requestHeader } from "../../http/request-header.js";
import { phased } from "../../kernel/compose.js";
import { setHeaders } from "../../kernel/response-headers.js";
import "../../http/context-vars.js";
import { PARAM_LOGGER_REQUEST_ID_KEY, PARAM_LOGGER_STARTED_KEY } from "../../base/symbols.js";
import { devRequestLines } from "../../http/dev-logger.js";
import { jsonMilliseconds, jsonNumber, jsonStringContent } from "../../http/json-text.js";
import {
  defaultLogger,
  type JsonLines,
  jsonLine,
  jsonLinesOf,
  type LogEntry,
  type Logger,
} from "../../http/logger.js";
import {
  FILTERED_KEY_PARTS,
  filteredParamsJson,
  filterHeaders,
  filterKeyForm,
  filterParams,
  isFilteredKey,
} from "./filter-params.js";
import { requestIdFrom } from "./request-id.js";

/** Options of {@link paramLogger}. */
export interface ParamLoggerOptions {
  /**
   * Where lines go; default one readable line a request in development, JSON lines on stdout
   * elsewhere (silent in the test environment).
   */
  logger?: Logger;
  /**
   * Extra key fragments to filter, added to the built-in list (Rails' `filter_parameters`),
   * matched as substrings of keys at any depth of query, form, JSON and XML parameters.
   * @example paramLogger({ filter: ["phone", "iban"] })
   */
  filter?: readonly string[];
  /**
   * Also log the request's headers, filtered (`Authorization`, `Cookie`, `Set-Cookie` and any
   * header whose name contains a filter part); default false.
   */
  headers?: boolean;
}

function queryParams(url: string, queryAt: number): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(url.slice(queryAt + 1))) {
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}

/** Query and path parameters of the request, query first (a path parameter wins a clash). */
export function requestParams(
  url: string,
  pathParams: Record<string, string>,
): Record<string, unknown> {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return pathParams;
  return { ...queryParams(url, queryAt), ...pathParams };
}

// When the request began, and the id it was given (which needs no escaping in JSON), on the
// context under keys of their own: not public context variables (Hono keeps those in a Map).
const STARTED: typeof PARAM_LOGGER_STARTED_KEY = PARAM_LOGGER_STARTED_KEY;
const GIVEN_ID: typeof PARAM_LOGGER_REQUEST_ID_KEY = PARAM_LOGGER_REQUEST_ID_KEY;
type Timed = Context & { [STARTED]?: number; [GIVEN_ID]?: string };

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Logs one structured line per request: method, path, status, duration, request id, the client
 * address (`clientAddress`: the socket peer, or the forwarded client behind `TRUSTED_PROXIES`), and the
 * parameters (query and path) plus the body form when the request read one, filtered
 * (docs/security.md), and the path with the segments of filtered path parameters filtered. The request id comes from `X-Request-Id` when sane, else is made, and is echoed
 * on the response; `c.get("requestId")` and `c.get("logger")` serve later middleware and errors.
 * The health route (`app.healthCheck`) is not logged.
 *
 * @param options - the `logger`, extra `filter` key fragments, and whether to log `headers`
 * @returns the middleware; it sets `c.get("requestId")` and `c.get("logger")`
 * @example
 * app.use(paramLogger());                       // JSON lines on stdout
 * app.use(paramLogger({ logger: myPinoLike })); // any { info, warn, error }
 */
export function paramLogger(options: ParamLoggerOptions = {}): MiddlewareHandler {
  const logger = options.logger ?? defaultLogger();
  const filter = [...FILTERED_KEY_PARTS, ...(options.filter ?? []).map(filterKeyForm)];
  // A path parameter the filter covers (a password reset's `password_id`) is a secret in the
  // path too: its segment is filtered from every line of the request, an error's included.
  const secretParam: SecretParam = (name) => isFilteredKey(name, filter);
  // Development's logger writes its own short line, naming the route's handler.
  const devLines = devRequestLines(logger);
  const write = (entry: LogEntry, form: Record<string, unknown> | undefined) => {
    if (form && Object.keys(form).length > 0) entry.form = filterParams(form, filter);
    if ((entry.status as number) >= 500) logger.error(entry);
    else logger.info(entry);
  };
  const logRequests = phased({
    before(c) {
      const requestId = requestIdFrom(requestHeader(c, "x-request-id"));
      (c as Timed)[STARTED] = performance.now();
      (c as Timed)[GIVEN_ID] = requestId;
      c.set("requestId", requestId);
      c.set("logger", logger);
      useSecretPathParams(c, secretParam);
      // A literal of lower-case name (REQUEST_ID_HEADER's): no computed key nor toLowerCase a
      // request, as setHeader makes (bench/load/ab-instructions.mjs, JSON show).
      setHeaders(c, { "x-request-id": requestId });
    },
    // Runs once the route has answered, an error below included (as its error response).
    after(c) {
      const requestId = c.get("requestId") as string;
      let pathParams = NO_PARAMS;
      try {
        pathParams = c.req.param() as Record<string, string>;
      } catch {
        // No route matched (404): there are no path parameters.
      }
      const status = c.res.status;
      const method = c.req.method;
      const requestPath = c.req.path;
      const path = filterPathSegments(requestPath, secretPathValues(pathParams, secretParam));
      const durationMs = performance.now() - ((c as Timed)[STARTED] as number);
      const params = requestParams(c.req.url, pathParams);
      const body = parsedBodyIfRead(c);
      if (devLines) {
        const line = {
          method,
          path,
          status,
          durationMs,
          handler: c.get("wisent")?.handlerFor(method, requestPath),
          params: filterParams(params, filter),
        };
        if (!body) return devLines(line);
        return body.then(
          (form) => devLines(form ? { ...line, form: filterParams(form, filter) } : line),
          () => devLines(line),
        );
      }
      // (An id that is not a string, set by something below, takes the entry's way.)
      const lines =
        typeof requestId === "string" && !options.headers ? jsonLinesOf(logger) : undefined;
      if (lines) {
        // A jsonLogger's own line, made from the parts (no entry object, no copy of the params).
        const error = status >= 500;
        // Sane or made, the id needs no escaping, unless something below set another.
        const idText =
          requestId === (c as Timed)[GIVEN_ID] ? requestId : jsonStringContent(requestId);
        const address = jsonStringContent(clientAddress(c));
        const text = lineFields(method, path, status, idText, address, durationMs, params, filter);
        if (!body) return writeLine(lines, error, text, undefined, filter);
        return body.then(
          (form) => writeLine(lines, error, text, form, filter),
          () => writeLine(lines, error, text, undefined, filter),
        );
      }
      const entry: LogEntry = {
        msg: `${method} ${path} ${status}`,
        request_id: requestId,
        client_address: clientAddress(c),
        method,
        path,
        status,
        duration_ms: Math.round(durationMs * 1000) / 1000,
        params: filterParams(params, filter),
      };
      if (options.headers) entry.headers = filterHeaders(c.req.raw.headers, filter);
      if (!body) return write(entry, undefined);
      return body.then(
        (form) => write(entry, form),
        () => write(entry, undefined),
      );
    },
  });
  // The health route (`app.healthCheck`) is probed every few seconds: no line for it.
  return outsideHealthChecks(logRequests);
}

// The JSON (without quotes) of the request methods seen: a handful.
const methodJson = new Map<string, string>();
const MAX_METHODS = 64;
function jsonMethod(method: string): string {
  let json = methodJson.get(method);
  if (json === undefined) {
    json = jsonStringContent(method);
    if (methodJson.size < MAX_METHODS) methodJson.set(method, json);
  }
  return json;
}

/**
 * The fields of the entry paramLogger logs, from `"msg"` to the params, as JSON (the form, if
 * any, is added when the line is written): the same text as JSON.stringify of
 * `{ msg, request_id, client_address, method, path, status, duration_ms, params }` gives, less the braces
 * (param-logger.test.ts compares the two over hostile requests).
 */
function lineFields(
  method: string,
  path: string,
  status: number,
  idText: string,
  addressText: string,
  durationMs: number,
  params: Record<string, unknown>,
  filter: readonly string[],
): string {
  const methodText = jsonMethod(method);
  const pathText = jsonStringContent(path);
  // The msg's pieces are apart (spaces between), so its JSON is theirs side by side.
  return `"msg":"${methodText} ${pathText} ${status}","request_id":"${idText}","client_address":"${addressText}","method":"${methodText}","path":"${pathText}","status":${jsonNumber(status)},"duration_ms":${jsonMilliseconds(durationMs)},"params":${filteredParamsJson(params, filter)}`;
}

function writeLine(
  lines: JsonLines,
  error: boolean,
  fields: string,
  form: Record<string, unknown> | undefined,
  filter: readonly string[],
): void {
  const all =
    form && Object.keys(form).length > 0
      ? `${fields},"form":${filteredParamsJson(form, filter)}`
      : fields;
  if (error) lines.err.write(jsonLine("error", all));
  else lines.out.write(jsonLine("info", all));
}
