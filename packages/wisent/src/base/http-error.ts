import type { ErrorCode } from "./error-codes.js";
import { WisentError } from "./wisent-error.js";

/**
 * An HTTP status with a message meant for the client (a {@link WisentError}, code `E_HTTP`
 * unless a subclass says otherwise). Handlers and middleware throw it; the error handler renders
 * it in the client's format.
 *
 * @example
 * throw new HttpError(404, "resource not implemented");
 */
export class HttpError extends WisentError {
  override name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string>; code?: ErrorCode },
  ) {
    super(
      options?.code ?? "E_HTTP",
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.headers = options?.headers ?? {};
  }
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string>;
}

/** True for any error carrying an HTTP status (ours, or one thrown by Hono). */
export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}
