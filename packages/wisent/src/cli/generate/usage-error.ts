/**
 * Bad command-line input (a missing name, an unknown type, a collision): the command prints the
 * message on one line and exits with code 2, having written nothing.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The exit code of a usage error. */
export const USAGE_EXIT_CODE = 2;
