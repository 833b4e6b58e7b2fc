import type { MiddlewareHandler } from "hono";
import { phased } from "../../app/compose.js";
import { parsedBodyIfRead } from "../../http/body.js";
import { requestHeader } from "../../http/request-header.js";
import {
  addResponseHeaders,
  editResponseHeaders,
  hasAllResponseHeaders,
} from "../../http/response-headers.js";
import "../../http/context-vars.js";
import { defaultLogger, type LogEntry, type Logger } from "../../http/logger.js";
import { FILTERED_KEY_PARTS, filterParams } from "./filter-params.js";
import { REQUEST_ID_HEADER, requestIdFrom } from "./request-id.js";

/** Options of {@link paramLogger}. */
export interface ParamLoggerOptions {
  /** Where lines go; default JSON on stdout (silent in the test environment). */
  logger?: Logger;
  /** Extra key fragments to filter, added to the built-in list. */
  filter?: readonly string[];
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
function requestParams(url: string, pathParams: Record<string, string>): Record<string, unknown> {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return pathParams;
  return { ...queryParams(url, queryAt), ...pathParams };
}

// When the request began, under a key of its own (not a public context variable).
const STARTED = "wisent.paramLogger.started";

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Logs one structured line per request: method, path, status, duration, request id, and the
 * parameters (query and path) plus the body form when the request read one, filtered
 * (DESIGN.md). The request id comes from `X-Request-Id` when sane, else is made, and is echoed
 * on the response; `c.get("requestId")` and `c.get("logger")` serve later middleware and errors.
 *
 * @example
 * app.use(paramLogger());                       // JSON lines on stdout
 * app.use(paramLogger({ logger: myPinoLike })); // any { info, warn, error }
 */
export function paramLogger(options: ParamLoggerOptions = {}): MiddlewareHandler {
  const logger = options.logger ?? defaultLogger();
  const filter = [
    ...FILTERED_KEY_PARTS,
    ...(options.filter ?? []).map((p) => p.toLowerCase().replace(/[^a-z0-9]/g, "")),
  ];
  const write = (entry: LogEntry, form: Record<string, unknown> | undefined) => {
    if (form && Object.keys(form).length > 0) entry.form = filterParams(form, filter);
    if ((entry.status as number) >= 500) logger.error(entry);
    else logger.info(entry);
  };
  return phased({
    before(c) {
      const requestId = requestIdFrom(requestHeader(c, "x-request-id"));
      c.set(STARTED, performance.now());
      c.set("requestId", requestId);
      c.set("logger", logger);
      // Handed to a response `c.respond` makes; set on any other in the after-step.
      addResponseHeaders(c, { "x-request-id": requestId });
    },
    // Runs once the route has answered, an error below included (as its error response).
    after(c) {
      const requestId = c.get("requestId") as string;
      if (!hasAllResponseHeaders(c) && c.res.headers.get(REQUEST_ID_HEADER) !== requestId) {
        editResponseHeaders(c, (headers) => headers.set(REQUEST_ID_HEADER, requestId));
      }
      let pathParams = NO_PARAMS;
      try {
        pathParams = c.req.param() as Record<string, string>;
      } catch {
        // No route matched (404): there are no path parameters.
      }
      const status = c.res.status;
      const method = c.req.method;
      const path = c.req.path;
      const entry: LogEntry = {
        msg: `${method} ${path} ${status}`,
        request_id: requestId,
        method,
        path,
        status,
        duration_ms: Math.round((performance.now() - (c.get(STARTED) as number)) * 1000) / 1000,
        params: filterParams(requestParams(c.req.url, pathParams), filter),
      };
      const body = parsedBodyIfRead(c);
      if (!body) return write(entry, undefined);
      return body.then(
        (form) => write(entry, form),
        () => write(entry, undefined),
      );
    },
  });
}
