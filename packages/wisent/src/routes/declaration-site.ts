import { fileURLToPath } from "node:url";

/**
 * Wisent's routing code (the App, groups, route builders), whose own frames are not the
 * declaration: matched by path, not by this module's folder, because an app's build bundles the
 * framework into its own file and source maps then name the framework's original files.
 */
const FRAMEWORK_APP_FILE = /[\\/]wisent[\\/](?:src|dist)[\\/]app[\\/][^\\/]+\.[cm]?[jt]sx?$/;
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/**
 * Where the route being declared was declared: the first stack frame outside Wisent's routing
 * code (`src/app.ts:12:5`), so that a start-up error about a route can point at its line.
 * `undefined` when the stack has no such frame.
 *
 * The frames are captured now but formatted only when the place is asked for (an error message):
 * formatting every route's stack at start-up, through source maps in a built app, was a tenth of
 * the shop's cold start (bench/load/cold-start.mjs).
 * @example const site = declarationSite(); // later: site() -> "src/app.ts:12:5"
 */
export function declarationSite(): () => string | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  Error.captureStackTrace(holder, declarationSite);
  Error.stackTraceLimit = limit;
  let place: string | undefined | null = null;
  return () => {
    if (place === null) place = firstOutsideFramework(holder.stack ?? "");
    return place;
  };
}

function firstOutsideFramework(stack: string): string | undefined {
  for (const line of stack.split("\n").slice(1)) {
    const location = frameLocation(line);
    if (location === undefined || location.startsWith("node:")) continue;
    const file = location.replace(/:\d+:\d+$/, "");
    const path = file.startsWith("file://") ? fileURLToPath(file) : file;
    if (FRAMEWORK_APP_FILE.test(path) && !TEST_FILE.test(path)) continue;
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
