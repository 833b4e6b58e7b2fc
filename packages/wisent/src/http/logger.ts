import { currentEnv } from "../app/environment.js";
import { formatIso } from "../data/stored-date.js";
import { devLogger } from "./dev-logger.js";

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

let isoAt = Number.NaN;
let iso = "";

/**
 * `new Date(now).toISOString()`, made once per millisecond: under load dozens of lines share
 * one (formatIso: V8's toISOString costs about 0.8 us).
 *
 * @example
 * const time = isoTime(Date.now()); // "2026-11-23T06:52:00.123Z"
 */
export function isoTime(now: number): string {
  if (now !== isoAt) {
    iso = formatIso(now) ?? new Date(now).toISOString();
    isoAt = now;
  }
  return iso;
}

/** `{"time":"...","level":"info","msg":...}`: the entry's own JSON after the two leading fields. */
function line(level: string, entry: LogEntry): string {
  const json = JSON.stringify(entry);
  // Spliced rather than spread into a new object: the entry is copied once, by JSON.stringify.
  return `{"time":"${isoTime(Date.now())}","level":"${level}",${json.slice(1)}\n`;
}

/**
 * Where a {@link jsonLogger} writes, for callers that make a whole line themselves (the request
 * log): `info` lines to `out`, errors to `err`. Each line must be what the logger's `line`
 * would make of its entry: `{"time":"<isoTime(Date.now())>","level":"<level>",<entry's fields>}`
 * and a newline.
 */
export interface JsonLines {
  readonly out: LineSink;
  readonly err: LineSink;
}

const LINES = Symbol("wisent.jsonLogger.lines");
type JsonLogger = Logger & {
  readonly [LINES]?: JsonLines & { readonly info: Logger["info"]; readonly error: Logger["error"] };
};

/**
 * The sinks of `logger` when it is a {@link jsonLogger} whose `info` and `error` are still its
 * own (not a wrapper, a spread copy with another `info`, or a replaced method), else undefined.
 */
export function jsonLinesOf(logger: Logger): JsonLines | undefined {
  const lines = (logger as JsonLogger)[LINES];
  return lines && logger.info === lines.info && logger.error === lines.error ? lines : undefined;
}

/**
 * A logger writing one JSON line per entry: info to `out`, warnings and errors to `err`.
 *
 * @example
 * app.use(paramLogger({ logger: jsonLogger() }));
 */
export function jsonLogger(out: LineSink = process.stdout, err: LineSink = process.stderr): Logger {
  const info: Logger["info"] = (entry) => out.write(line("info", entry));
  const error: Logger["error"] = (entry) => err.write(line("error", entry));
  const logger = { info, warn: (entry: LogEntry) => err.write(line("warn", entry)), error };
  // Not enumerable: a spread copy (`{ ...jsonLogger(), info() {} }`) does not carry it along.
  Object.defineProperty(logger, LINES, { value: { out, err, info, error } });
  return logger;
}

/**
 * Collects lines and hands them to `sink` in one write per turn of the event loop (sooner past
 * `maxBytes`), and at process exit. Request lines to stdout are otherwise one system call each:
 * under load most of a busy turn's requests then share one.
 *
 * @example
 * const logger = jsonLogger(batchedLines(process.stdout));
 */
export function batchedLines(sink: LineSink, maxBytes = 64 * 1024): LineSink {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const chunk = pending;
    pending = "";
    sink.write(chunk);
  };
  process.on("exit", flush);
  return {
    write(text: string) {
      pending += text;
      if (pending.length >= maxBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return true;
    },
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

let stdoutLines: LineSink | undefined;

/**
 * The logger used when none is given: in development one readable (coloured on a terminal)
 * line a request ({@link devLogger}, request lines batched per event-loop turn); elsewhere JSON lines (request lines batched per
 * event-loop turn, warnings and errors written at once), except that the test environment
 * keeps request lines quiet (warnings and errors still reach stderr, since they mean something
 * broke).
 */
export function defaultLogger(env: string = currentEnv()): Logger {
  if (env === "test") return { ...jsonLogger(), info() {} };
  stdoutLines ??= batchedLines(process.stdout);
  // Development's readable lines are batched too: one write per busy turn, not per request.
  if (env === "development") return devLogger(stdoutLines);
  return jsonLogger(stdoutLines, process.stderr);
}

let shared: Logger | undefined;
/** The process-wide default logger (made on first use). */
export function sharedLogger(): Logger {
  shared ??= defaultLogger();
  return shared;
}
