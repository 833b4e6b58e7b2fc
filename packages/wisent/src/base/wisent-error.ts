import { ERROR_CODES, type ErrorCode } from "./error-codes.js";

/**
 * The base of every error Wisent throws on purpose: a message that says what to do, and a stable
 * `code` (docs/reference/errors.md lists them) to branch on instead of matching messages. A
 * request that meets one answers the `status` of its code's row (a taken unique value 422, the
 * database down 503), or 500 when the row has none.
 *
 * @example
 * try {
 *   await Book.create(db, input);
 * } catch (error) {
 *   if (isWisentError(error, "E_VALIDATION_FAILED")) return c.respond(422, { json: error });
 *   throw error;
 * }
 */
export class WisentError extends Error {
  override name = "WisentError";
  /** The HTTP status a request that meets it answers with: its code's, or undefined (a 500). */
  readonly status: number | undefined;
  /**
   * @param code - the stable code (docs/reference/errors.md)
   * @param message - what happened and what to do
   * @param options - the `cause`
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.status = (ERROR_CODES[code] as { status?: number }).status;
  }
}

/**
 * True for an error Wisent threw on purpose; with `code`, only for that kind.
 * @param error - anything thrown
 * @param code - the one code to accept
 * @returns whether it is a WisentError (with that code)
 * @example if (isWisentError(error, "E_MISSING_DEPENDENCY")) console.error(error.message);
 */
export function isWisentError(error: unknown, code?: ErrorCode): error is WisentError {
  return error instanceof WisentError && (code === undefined || error.code === code);
}
