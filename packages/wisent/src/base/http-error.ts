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
  /**
   * @param status - the HTTP status to answer with (404, 403, 422, ...)
   * @param message - shown to the client, so say what to change; never a secret
   * @param options - the `cause`, extra response `headers`, and a more precise `code` than
   *   `E_HTTP`
   */
  constructor(
    override readonly status: number,
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

/**
 * True for an {@link HttpError}, its subclasses included (`ValidationFailedError`,
 * `DependentRecordsError`, `NoRouteError`): an error whose `status` and message were chosen for
 * the client. Other `WisentError`s with a status (`ValidationErrors`, a taken unique value, the
 * database down) and Hono's `HTTPException` are not, though `errorResponse` answers their
 * status too.
 * @param err - anything thrown
 * @returns whether it is an HttpError, with `status` and `headers`
 * @example if (isHttpError(error) && error.status === 404) return c.redirectTo(303, "/");
 */
export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}
