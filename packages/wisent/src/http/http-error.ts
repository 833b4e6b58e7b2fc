/**
 * The one error type of Wisent: an HTTP status with a message meant for the client.
 * Handlers and middleware throw it; the error handler renders it in the client's format.
 *
 * @example
 * throw new HttpError(404, "resource not implemented");
 */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.headers = options?.headers ?? {};
  }
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string>;
}

/** True for any error carrying an HTTP status (ours, or one thrown by Hono). */
export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}
