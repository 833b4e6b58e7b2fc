import { currentEnv } from "../app/environment.js";

/** One structured log entry; written as one JSON line by the default logger. */
export type LogEntry = { msg: string } & Record<string, unknown>;

/** Where Wisent writes its logs. Pass your own (pino, console, a test spy) to the middleware. */
export interface Logger {
  info(entry: LogEntry): void;
  warn(entry: LogEntry): void;
  error(entry: LogEntry): void;
}

/**
 * A logger writing one JSON line per entry: info to stdout, warnings and errors to stderr.
 *
 * @example
 * app.use(paramLogger({ logger: jsonLogger() }));
 */
export function jsonLogger(
  out: { write(line: string): unknown } = process.stdout,
  err: { write(line: string): unknown } = process.stderr,
): Logger {
  const line = (level: string, entry: LogEntry) =>
    JSON.stringify({ time: new Date().toISOString(), level, ...entry }) + "\n";
  return {
    info: (entry) => out.write(line("info", entry)),
    warn: (entry) => err.write(line("warn", entry)),
    error: (entry) => err.write(line("error", entry)),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * The logger used when none is given: JSON lines, except that the test environment keeps
 * request lines quiet (warnings and errors still reach stderr, since they mean something broke).
 */
export function defaultLogger(env: string = currentEnv()): Logger {
  const logger = jsonLogger();
  return env === "test" ? { ...logger, info() {} } : logger;
}

let shared: Logger | undefined;
/** The process-wide default logger (made on first use). */
export function sharedLogger(): Logger {
  shared ??= defaultLogger();
  return shared;
}
