import { Hono } from "hono";
import { vi } from "vitest";
import { errorResponse } from "../error-response.js";
import type { Logger } from "../logger.js";

/** An app whose every route throws `error`, answered by `errorResponse` as the App does. */
export function appThrowing(error: unknown, env: string, logger?: Logger) {
  const app = new Hono();
  app.onError(errorResponse);
  app.use("*", async (c, next) => {
    // The runtime's fields errorResponse reads (the App's runtime is above http/).
    c.set("wisent", { name: "shop", env, api: false } as never);
    c.set("requestId", "req-1");
    if (logger) c.set("logger", logger);
    await next();
  });
  app.all("*", () => {
    throw error;
  });
  return app;
}

/** A logger whose calls a test reads. */
export const spyLogger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });
