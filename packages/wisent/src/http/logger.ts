import { formatIso } from "../base/iso-time.js";
import { JSON_LOGGER_LINES_KEY } from "../base/symbols.js";
import { currentEnv } from "../config/settings.js";
import { devLogger } from "./dev-logger.js";
import type { LineSink, LogEntry, Logger } from "./log-types.js";

export type { LineSink, LogEntry, Logger } from "./log-types.js";

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

/**
 * The one shape of a JSON log line: `{"time":"...","level":"...",<fields>}` and a newline, the
 * time read now. `fields` is the JSON of the entry's fields without its braces; jsonLogger
 * passes JSON.stringify's, the request log (paramLogger) makes its own from the parts.
 *
 * @example
 * jsonLine("info", '"msg":"ready"'); // '{"time":"2026-11-23T06:52:00.123Z","level":"info","msg":"ready"}\n'
 */
export function jsonLine(level: "info" | "warn" | "error", fields: string): string {
  return `{"time":"${isoTime(Date.now())}","level":"${level}",${fields}}\n`;
}

function line(level: "info" | "warn" | "error", entry: LogEntry): string {
  // Spliced rather than spread into a new object: the entry is copied once, by JSON.stringify.
  return jsonLine(level, JSON.stringify(entry).slice(1, -1));
}

/**
 * Where a {@link jsonLogger} writes, for callers that make a whole line themselves (the request
 * log): `info` lines to `out`, errors to `err`. Each line must be {@link jsonLine}'s, with the
 * fields JSON.stringify would give of the entry.
 */
export interface JsonLines {
  readonly out: LineSink;
  readonly err: LineSink;
}

const LINES: typeof JSON_LOGGER_LINES_KEY = JSON_LOGGER_LINES_KEY;
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
 * @param out - where info lines go (default stdout)
 * @param err - where warnings and errors go (default stderr)
 * @returns the logger
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
 * line a request (`devLogger`, request lines batched per event-loop turn); elsewhere JSON lines (request lines batched per
 * event-loop turn, warnings and errors written at once), except that the test environment
 * keeps request lines quiet (warnings and errors still reach stderr, since they mean something
 * broke).
 * @param env - the environment (default `currentEnv()`)
 * @returns the logger for that environment
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
