import type { ErrorCode } from "./error-codes.js";
import { WisentError } from "./wisent-error.js";

/** The fields of the line an {@link UnavailableError} is logged with, beside the request's. */
export type UnavailableLogLine = { readonly msg: string } & Readonly<Record<string, unknown>>;

/**
 * Something the app depends on (the database, the file storage) failed for now: a request that
 * meets it answers its code's status (503) with `Retry-After` and a message that says only
 * which service to wait for, and the operator reads the cause in the log line `log` describes.
 * The `message` is the operator's (it may name a host or a path), never shown to a client.
 *
 * @example
 * throw new UnavailableError("E_DATABASE_UNAVAILABLE", "database", "connect ECONNREFUSED", {
 *   log: { msg: "database unavailable", error: "connect ECONNREFUSED" },
 * });
 */
export class UnavailableError extends WisentError {
  override name = "UnavailableError";
  /** What a client is told: `<service> unavailable: please try again shortly`. */
  readonly shown: string;
  /** The log line's own fields (`msg` first); the error handler adds the request's. */
  readonly log: UnavailableLogLine;

  /**
   * @param code - the stable code; its row's status is what a request answers (503)
   * @param service - what is unavailable, as a client may be told (`database`, `file storage`)
   * @param message - for the operator: the cause, the host or path it concerns
   * @param options - the `cause`, and the `log` line's fields (default `{ msg: "<service>
   *   unavailable", error: message }`)
   */
  constructor(
    code: ErrorCode,
    service: string,
    message: string,
    options: { cause?: unknown; log?: UnavailableLogLine } = {},
  ) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.shown = `${service} unavailable: please try again shortly`;
    this.log = options.log ?? { msg: `${service} unavailable`, error: message };
  }
}

/** How long a client should wait before trying again after an {@link UnavailableError}. */
export const RETRY_AFTER_SECONDS = 5;
