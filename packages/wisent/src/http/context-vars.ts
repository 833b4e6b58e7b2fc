import type {} from "hono";
import type { Logger } from "./logger.js";

declare module "hono" {
  interface ContextVariableMap {
    /** This request's id (from `X-Request-Id` when sane, else made), set by `paramLogger()`. */
    requestId: string | undefined;
    /** The logger chosen by `paramLogger()`; errors are logged through it. */
    logger: Logger | undefined;
  }
}
