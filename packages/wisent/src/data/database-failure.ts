import { UnavailableError } from "../base/unavailable-error.js";
import { WisentError } from "../base/wisent-error.js";
import { humanizeField } from "../validation/validation.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import { type ConstraintViolation, constraintViolation } from "./constraint-violation.js";
import { describeCause, isDatabaseUnavailable } from "./database-unavailable.js";
import { isInvalidDatabaseValue } from "./invalid-value.js";

/**
 * The database could not be reached or refuses work for now (server down, connection dropped,
 * too many connections, a database never created): `E_DATABASE_UNAVAILABLE`, a 503 with
 * `Retry-After` for a request. The message (and the log line) names the driver's cause; the
 * driver's error is the `cause`.
 *
 * @example
 * if (isWisentError(error, "E_DATABASE_UNAVAILABLE")) console.error(error.message);
 */
export class DatabaseUnavailableError extends UnavailableError {
  override name = "DatabaseUnavailableError";
  /**
   * @param message - what failed and why (`cannot connect to database postgres://...: ...`)
   * @param cause - the driver's error
   */
  constructor(message: string, cause: unknown) {
    super("E_DATABASE_UNAVAILABLE", "database", message, {
      cause,
      log: { msg: "database unavailable", error: describeCause(cause) },
    });
  }
}

/**
 * A write a constraint of the database refused, from a query no model checked (one written by
 * hand): a taken unique value (`E_UNIQUE_VIOLATION`) or a foreign key naming no record
 * (`E_MISSING_REFERENCE`), a 422 whose `errors` name the field.
 *
 * @example
 * if (isWisentError(error, "E_UNIQUE_VIOLATION")) return c.respond(422, { json: error.errors });
 */
export class ConstraintError extends WisentError {
  override name = "ConstraintError";
  /**
   * @param violation - what the database reported (its kind and columns)
   * @param errors - the message by field, as a model's check would give it
   * @param cause - the driver's error
   */
  constructor(
    readonly violation: ConstraintViolation,
    readonly errors: ValidationErrors,
    cause: unknown,
  ) {
    super(
      violation.kind === "unique" ? "E_UNIQUE_VIOLATION" : "E_MISSING_REFERENCE",
      `${Object.values(errors.errors).flat().join(" ")} (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause },
    );
  }
}

/** A restricted delete: `E_DEPENDENT_RECORDS` (409); a model's `destroy` names the rows instead. */
function referencedFailure(cause: unknown): WisentError {
  return new WisentError("E_DEPENDENT_RECORDS", "the record is still referenced by other records", {
    cause,
  });
}

/** A taken value or a missing parent, on the field it concerns (a scope's columns come first). */
function constraintFailure(
  violation: Exclude<ConstraintViolation, { kind: "referenced" }>,
  cause: unknown,
): ConstraintError {
  const field =
    (violation.kind === "unique" ? violation.columns.at(-1) : violation.columns[0]) ?? "base";
  const what = field === "base" ? "A value" : humanizeField(field);
  const message =
    violation.kind === "unique" ? `${what} has already been taken.` : `${what} must exist.`;
  return new ConstraintError(violation, new ValidationErrors({ [field]: [message] }), cause);
}

/**
 * A driver's error as the coded `WisentError` a request answers by its code's status: a
 * constraint the write broke (422 naming the field, 409 for a restricted delete), a value the
 * column cannot hold (400), the database unreachable (503); any other error (a bad query, a
 * missing table) as it is. The driver's error stays the `cause`, so `constraintViolation` and
 * `isDatabaseUnavailable` still read it. Applied where data/ runs a statement (the SQLite
 * connection, the pooled drivers), so a query written by hand is translated too.
 *
 * @param error - what a driver threw
 * @returns the coded error, or `error` itself
 * @example
 * databaseFailure(pgError).code; // "E_UNIQUE_VIOLATION" for SQLSTATE 23505
 */
export function databaseFailure(error: unknown): unknown {
  if (error instanceof WisentError) return error;
  const violation = constraintViolation(error);
  if (violation) {
    return violation.kind === "referenced"
      ? referencedFailure(error)
      : constraintFailure(violation, error);
  }
  if (isInvalidDatabaseValue(error)) {
    const why = error instanceof Error ? error.message : String(error);
    return new WisentError("E_INVALID_VALUE", `the database refused a value: ${why}`, {
      cause: error,
    });
  }
  if (isDatabaseUnavailable(error)) {
    return new DatabaseUnavailableError(`database unavailable: ${describeCause(error)}`, error);
  }
  return error;
}
