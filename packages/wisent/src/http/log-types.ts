// The logger's types on their own, so that logger.ts and the loggers it picks from (dev-logger.ts)
// both import them without importing each other.

/** One structured log entry; written as one JSON line by the default logger. */
export type LogEntry = { msg: string } & Record<string, unknown>;

/** Where Wisent writes its logs. Pass your own (pino, console, a test spy) to the middleware. */
export interface Logger {
  info(entry: LogEntry): void;
  warn(entry: LogEntry): void;
  error(entry: LogEntry): void;
}

/** Anything lines can be written to (a stream, a test's array-backed sink). */
export interface LineSink {
  write(line: string): unknown;
}
