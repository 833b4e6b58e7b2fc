/**
 * Development's log: one short, coloured line a request (method, path, status, time, the
 * handler, and the parameters when there are any), and readable warnings and errors, instead of
 * the JSON lines production and test write. Colour follows the terminal, `NO_COLOR` and
 * `FORCE_COLOR`.
 * @module
 */
import { colorize, type PaintStyle } from "../base/colorize.js";
import { DEV_LOGGER_REQUEST_KEY } from "../base/symbols.js";
import { colorWanted } from "./color-wanted.js";
import type { LineSink, LogEntry, Logger } from "./log-types.js";
import { statusText } from "./status-text.js";

type Style = PaintStyle;

/** What the request log knows about one answered request. */
export interface RequestLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  /** The route's handler (`WidgetsResource.Show`); undefined when no route matched. */
  readonly handler: string | undefined;
  /** Query and path parameters, already filtered. */
  readonly params: unknown;
  /** The body's form fields, already filtered, when the request read one. */
  readonly form?: unknown;
}

const REQUEST: typeof DEV_LOGGER_REQUEST_KEY = DEV_LOGGER_REQUEST_KEY;

/** A logger that can write request lines of its own (see {@link devRequestLines}). */
type DevLogger = Logger & { readonly [REQUEST]?: (line: RequestLine) => void };

/**
 * The request-line writer of `logger` when it is a `devLogger`, else undefined
 * (`paramLogger` then logs its entry through `info`/`error`).
 */
export function devRequestLines(logger: Logger): ((line: RequestLine) => void) | undefined {
  return (logger as DevLogger)[REQUEST];
}

function statusStyle(status: number): Style {
  if (status >= 500) return ["red", "bold"];
  if (status >= 400) return ["yellow", "bold"];
  if (status >= 300) return ["cyan", "bold"];
  return ["green", "bold"];
}

function hasFields(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}

function duration(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)}ms` : `${ms.toFixed(1)}ms`;
}

/**
 * One request as a line: `GET /widgets/1 200 OK in 3.1ms WidgetsResource.Show {"widget_id":"1"}`.
 * @example formatRequestLine({ method: "GET", path: "/", status: 200, durationMs: 2, handler: "HomeHandler", params: {} }, false)
 * // "GET / 200 OK in 2.0ms HomeHandler"
 */
export function formatRequestLine(line: RequestLine, color: boolean): string {
  const painted = (style: Style, text: string) => (color ? colorize(style, text) : text);
  const parts = [
    painted("bold", line.method),
    line.path,
    painted(statusStyle(line.status), `${line.status} ${statusText(line.status)}`.trim()),
    painted("dim", `in ${duration(line.durationMs)}`),
    painted("magenta", line.handler ?? "(no route)"),
  ];
  if (hasFields(line.params)) parts.push(painted("dim", JSON.stringify(line.params)));
  if (hasFields(line.form)) parts.push(painted("dim", `form ${JSON.stringify(line.form)}`));
  return `${parts.join(" ")}\n`;
}

/** A warning or error entry: `warning: msg key=value ...`, and a trace on the lines after. */
function formatEntry(level: "info" | "warn" | "error", entry: LogEntry, color: boolean): string {
  const { msg, trace, ...rest } = entry;
  const label =
    level === "error"
      ? color
        ? colorize(["red", "bold"], "error:")
        : "error:"
      : level === "warn"
        ? color
          ? colorize(["yellow", "bold"], "warning:")
          : "warning:"
        : "";
  const fields = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const head = [label, msg, ...fields].filter((part) => part !== "").join(" ");
  const tail = typeof trace === "string" ? `\n${trace.replace(/^/gm, "    ")}` : "";
  return `${head}${tail}\n`;
}

/**
 * The development logger: request lines and info on `out`, warnings and errors on `err`.
 *
 * @example
 * app.use(paramLogger({ logger: devLogger() })); // what development gets by default
 */
export function devLogger(
  out: LineSink = process.stdout,
  err: LineSink = process.stderr,
  color: boolean = colorWanted(process.env, process.stdout.isTTY === true),
): Logger {
  const logger: DevLogger = {
    info: (entry) => out.write(formatEntry("info", entry, color)),
    warn: (entry) => err.write(formatEntry("warn", entry, color)),
    error: (entry) => err.write(formatEntry("error", entry, color)),
  };
  Object.defineProperty(logger, REQUEST, {
    value: (line: RequestLine) =>
      (line.status >= 500 ? err : out).write(formatRequestLine(line, color)),
  });
  return logger;
}
