/** MySQL/MariaDB and SQLite codes for a value the column cannot hold. */
const CODES = new Set([
  "ER_DATA_TOO_LONG",
  "ER_TRUNCATED_WRONG_VALUE",
  "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD",
  "ER_WARN_DATA_OUT_OF_RANGE",
  "ER_INVALID_CHARACTER_STRING",
  "WARN_DATA_TRUNCATED",
  "SQLITE_TOOBIG",
  "SQLITE_MISMATCH",
]);

/**
 * Whether the database refused a value the request sent (a NUL byte in PostgreSQL text, a string
 * longer than its varchar, a number out of range, a malformed date): PostgreSQL's SQLSTATE class
 * 22 (data exception) and the MySQL/SQLite equivalents. The request's fault, so a 400, not a 500.
 *
 * @example
 * isInvalidDatabaseValue(pgError); // true for 22021 'invalid byte sequence for encoding "UTF8": 0x00'
 */
export function isInvalidDatabaseValue(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return /^22[0-9A-Z]{3}$/.test(code) || CODES.has(code);
}
