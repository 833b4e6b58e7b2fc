// The logger's types on their own, so that logger.ts and the loggers it picks from (dev-logger.ts)
// both import them without importing each other.

/** One structured log entry; written as one JSON line by the default logger. */
export type LogEntry = { msg: string } & Record<string, unknown>;

/** Where Wisent writes its logs. Pass your own (pino, console, a test spy) to the middleware. */
export interface Logger {
  /**
   * Logs a request line or a fact.
   * @param entry - `msg` and any fields
   */
  info(entry: LogEntry): void;
  /**
   * Logs something that deserves a look (a missing translation).
   * @param entry - `msg` and any fields
   */
  warn(entry: LogEntry): void;
  /**
   * Logs a failure (a 500's error, a failed rollback).
   * @param entry - `msg` and any fields
   */
  error(entry: LogEntry): void;
}

/** Anything lines can be written to (a stream, a test's array-backed sink). */
export interface LineSink {
  /**
   * Writes text (one or more whole lines, each ending in a newline).
   * @param line - the text
   */
  write(line: string): unknown;
}
