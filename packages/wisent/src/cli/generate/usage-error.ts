import { WisentError } from "../../base/wisent-error.js";

/**
 * Bad command-line input (a missing name, an unknown type, a collision): the command prints the
 * message on one line and exits with code 2, having written nothing.
 */
export class UsageError extends WisentError {
  override name = "UsageError";
  constructor(message: string, options?: ErrorOptions) {
    super("E_USAGE", message, options);
  }
}

/** The exit code of a usage error. */
export const USAGE_EXIT_CODE = 2;
