import { isWisentError } from "../base/wisent-error.js";

/** Node socket errors meaning the database server cannot be reached or went away. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Driver codes for the same: PostgreSQL SQLSTATEs of class 08 (connection exception), 57P01-57P03
 * (shut down / starting up) and 53300 (too many connections); MySQL/MariaDB lost connections and
 * connection limits; SQLite busy beyond its timeout.
 */
const DRIVER_CODES = new Set([
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "PROTOCOL_CONNECTION_LOST",
  "ER_CON_COUNT_ERROR",
  "ER_SERVER_SHUTDOWN",
  "SQLITE_BUSY",
]);

/**
 * The database a URL names is not on its server: PostgreSQL's SQLSTATE 3D000 (`database "x" does
 * not exist`), MySQL/MariaDB's ER_BAD_DB_ERROR (`Unknown database 'x'`).
 */
const MISSING_DATABASE_CODES = new Set(["3D000", "ER_BAD_DB_ERROR"]);

/** What a message about a missing database says to do. */
export const MISSING_DATABASE_HINT =
  "create it with `wisent db create` (or `wisent db prepare`, which also runs the migrations)";

/**
 * Whether an error says the database itself does not exist (the server answers, the database
 * was never created). Looks through `cause` chains and AggregateErrors.
 *
 * @example
 * if (isMissingDatabase(error)) console.error(`${error.message}: ${MISSING_DATABASE_HINT}`);
 */
export function isMissingDatabase(error: unknown, depth = 0): boolean {
  if (depth > 5 || error === null || typeof error !== "object") return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === "string" && MISSING_DATABASE_CODES.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isMissingDatabase(e, depth + 1)))
    return true;
  return isMissingDatabase(cause, depth + 1);
}

/**
 * pg reports a dropped socket by message only, and mysql2 a query on a connection the server
 * closed (killed, restarted) meanwhile: as its own message, or as Node's EPIPE of a write after
 * the peer's FIN, which carries no system call.
 */
const MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection is closed/,
  /^Can't add new command when connection is in closed state/,
  /^This socket has been ended by the other party/,
];

/**
 * Whether an error means the database is unreachable or refusing work for now (server down,
 * connection dropped, shutting down, too many connections, or not created yet:
 * {@link isMissingDatabase}), as opposed to a bad query. Looks through `cause` chains and
 * AggregateErrors (pg's refused connections).
 *
 * @example
 * if (isDatabaseUnavailable(error)) throw new HttpError(503, "database unavailable");
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || error === null || typeof error !== "object") return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === "string" && (DRIVER_CODES.has(code) || MISSING_DATABASE_CODES.has(code)))
    return true;
  // Socket errors carry the system call (connect, read, write); a client's aborted upload
  // (code ECONNRESET, message "aborted", no syscall) is not the database going away.
  const syscall = (error as { syscall?: unknown }).syscall;
  if (typeof code === "string" && NETWORK_CODES.has(code) && typeof syscall === "string")
    return true;
  if (typeof message === "string" && MESSAGES.some((m) => m.test(message))) return true;
  if (
    error instanceof AggregateError &&
    error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(cause, depth + 1);
}

/**
 * A readable reason from driver errors (pg wraps refused connections in an AggregateError with no
 * message); a database that does not exist gets what to run ({@link MISSING_DATABASE_HINT}).
 */
export function describeCause(cause: unknown): string {
  // Already translated by data/ (see database-failure.ts): the driver's own error says it.
  if (isWisentError(cause, "E_DATABASE_UNAVAILABLE") && cause.cause !== undefined) {
    return describeCause(cause.cause);
  }
  const reason = driverReason(cause);
  return isMissingDatabase(cause) ? `${reason}: ${MISSING_DATABASE_HINT}` : reason;
}

function driverReason(cause: unknown): string {
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return driverReason(cause.errors[0]);
  }
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    if (cause.message) return cause.message;
    if (typeof code === "string") return code;
    return cause.name;
  }
  return String(cause);
}
