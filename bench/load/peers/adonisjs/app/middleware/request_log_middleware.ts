import type { HttpContext } from "@adonisjs/core/http";
import type { NextFn } from "@adonisjs/core/types/http";

/**
 * One log line a request (method, path, status, duration, params), as the Wisent apps write:
 * AdonisJS logs no request line of its own.
 */
export default class RequestLogMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const started = process.hrtime.bigint();
    await next();
    const { request, response } = ctx;
    const path = request.url();
    const status = response.getStatus();
    ctx.logger.info(
      {
        method: request.method(),
        path,
        status,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        params: { ...request.qs(), ...ctx.params },
      },
      `${request.method()} ${path} ${status}`,
    );
  }
}
