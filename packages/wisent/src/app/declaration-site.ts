import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** This folder: the App, groups and route builders, whose own frames are not the declaration. */
const OWN_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * Where the route being declared was declared: the first stack frame outside Wisent's routing
 * code (`src/app.ts:12:5`), so that a start-up error about a route can point at its line.
 * `undefined` when the stack has no such frame.
 */
export function declarationSite(): string | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  Error.captureStackTrace(holder, declarationSite);
  Error.stackTraceLimit = limit;
  for (const line of (holder.stack ?? "").split("\n").slice(1)) {
    const location = frameLocation(line);
    if (location === undefined || location.startsWith("node:")) continue;
    const file = location.replace(/:\d+:\d+$/, "");
    const path = file.startsWith("file://") ? fileURLToPath(file) : file;
    if (dirname(path) === OWN_DIR && !/\.test\.[cm]?[jt]sx?$/.test(path)) continue;
    return relativeToCwd(path) + location.slice(file.length);
  }
  return undefined;
}

/** `    at fn (/a/b.ts:1:2)` or `    at /a/b.ts:1:2` -> `/a/b.ts:1:2`. */
function frameLocation(line: string): string | undefined {
  const match = /\(([^()]+:\d+:\d+)\)$/.exec(line) ?? /at (\S+:\d+:\d+)$/.exec(line);
  return match?.[1];
}

function relativeToCwd(path: string): string {
  const cwd = `${process.cwd()}/`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}
