/**
 * The two HTTP-layer functions the App calls outside of middleware: rendering an error, and
 * method override before routing. Interim versions until src/http delivers its own.
 */
import type { Context } from "hono";
import { isHttpError } from "../http/http-error.js";

export function renderError(err: unknown, c: Context): Response {
  const status = isHttpError(err) ? err.status : 500;
  const message = isHttpError(err) ? err.message : "internal server error";
  if (!isHttpError(err)) console.error(err);
  const headers = isHttpError(err) ? err.headers : {};
  return c.json({ error: message, code: status }, status as 500, headers);
}

export async function overrideMethod(
  request: Request,
  _options?: { bodyLimit?: number },
): Promise<Request> {
  return request;
}
