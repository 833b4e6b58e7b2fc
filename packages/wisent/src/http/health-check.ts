/**
 * The health route (`GET /up`), as Rails 7.1+ apps ship it: what a load balancer, Docker's
 * `HEALTHCHECK` or an orchestrator probes to know the app is up. Declared with
 * `app.healthCheck("/up", { database: db })` (see `Group.healthCheck`).
 * @module
 */
import type { Handler, MiddlewareHandler } from "hono";
import { OUTSIDE_HEALTH_CHECKS_KEY } from "../base/symbols.js";
import { negotiateFormat } from "./format.js";
import { defaultLogger, type Logger } from "./logger.js";

/** Options of `Group.healthCheck`. */
export interface HealthCheckOptions {
  /**
   * What must answer for the app to be up: the app's database (its `check()` runs `select 1`),
   * or anything with a `check()` that rejects when it is down. Without it, the route answers 200
   * whenever the process serves requests.
   */
  readonly database?: { check(): Promise<unknown> };
  /** How long the check may take before the app counts as down, in ms (default 3000). */
  readonly timeoutMs?: number;
  /** Where a failed check is written, so the cause is known (default: JSON lines on stderr). */
  readonly logger?: Logger;
}

const OUTSIDE_HEALTH_CHECKS: typeof OUTSIDE_HEALTH_CHECKS_KEY = OUTSIDE_HEALTH_CHECKS_KEY;
type Marked = MiddlewareHandler & { [OUTSIDE_HEALTH_CHECKS]?: true };

/**
 * Marks a middleware that the health route leaves out wherever it is declared: `forceSSL()`
 * (a load balancer probes over plain HTTP) and `paramLogger()` (a probe every few seconds is no
 * request worth a log line).
 */
export function outsideHealthChecks(middleware: MiddlewareHandler): MiddlewareHandler {
  (middleware as Marked)[OUTSIDE_HEALTH_CHECKS] = true;
  return middleware;
}

/** The middleware of a stack that the health route runs. */
export function healthCheckStack(stack: readonly MiddlewareHandler[]): MiddlewareHandler[] {
  return stack.filter((middleware) => (middleware as Marked)[OUTSIDE_HEALTH_CHECKS] !== true);
}

/** Why the check failed, or undefined when everything answered in time. */
async function failure(options: HealthCheckOptions): Promise<unknown> {
  const database = options.database;
  if (!database) return undefined;
  const timeoutMs = options.timeoutMs ?? 3000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Error>((resolve) => {
    timer = setTimeout(
      // A value the health check reports in its body, never thrown.
      () => resolve(new Error(`the database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    return await Promise.race([database.check().then(() => undefined), late]);
  } catch (error) {
    return error;
  } finally {
    clearTimeout(timer);
  }
}

/** A small page a person opening the URL can read; no inline style, so any CSP allows it. */
function page(status: "up" | "down"): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${status}</title></head><body><h1>${status}</h1></body></html>\n`;
}

/** Negotiated as any route is; a format the request asks for that makes no sense here is HTML. */
function wantsJson(c: Parameters<Handler>[0]): boolean {
  try {
    return negotiateFormat(c) === "json";
  } catch {
    return false;
  }
}

/**
 * The health route's handler: 200 `up` when the database answers `select 1` within the timeout,
 * else 503 `down` (with the cause written to the logger, never to the client). JSON
 * (`{"status":"up"}`) when the client asks for it or the app is an API, else a small HTML page.
 * Never cached.
 */
export function healthCheckHandler(options: HealthCheckOptions = {}): Handler {
  const logger = options.logger ?? defaultLogger();
  return async function healthCheck(c) {
    const cause = await failure(options);
    const status = cause === undefined ? "up" : "down";
    if (cause !== undefined) {
      logger.error({
        msg: `health check ${c.req.path} failed`,
        path: c.req.path,
        error: cause instanceof Error ? cause.message : String(cause),
      });
    }
    c.header("Cache-Control", "no-store");
    const code = status === "up" ? 200 : 503;
    return wantsJson(c) ? c.json({ status }, code) : c.html(page(status), code);
  };
}
