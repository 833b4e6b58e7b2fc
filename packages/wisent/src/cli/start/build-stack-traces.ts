/**
 * Stack traces of the app's compiled build name the TypeScript lines, with the build's source map
 * read only when a trace first passes through it.
 *
 * Node's own source maps (`process.setSourceMapsEnabled(true)`) read, parse and index the map of
 * every module as it loads, whether or not a trace ever needs it: for the app's bundle (1.3 MB,
 * with a 1 MB map) about a tenth of the CPU `wisent start` spent before its first answer
 * (bench/load/RESULTS-cold-start.md).
 * @module
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SourceMaps } from "../../base/source-maps.js";

const FRAME = "\n    at ";

/**
 * Maps the frames of every stack trace that fall in a `.js` file under `dir` (the app's `dist/`)
 * through the file's source map (`<file>.map`, as `wisent build` writes it) to the original file,
 * line and column. Frames elsewhere, and files without a readable map, stay as V8 prints them.
 * Returns a function that puts the previous `Error.prepareStackTrace` back.
 * @example mapBuildStackTraces(join(cwd, "dist")); await import(serverUrl);
 */
export function mapBuildStackTraces(dir: string): () => void {
  // V8 names an ES module by its URL; a module loaded another way (a test runner) by its path.
  const prefixes = [pathToFileURL(join(dir, "/")).href, join(dir, "/")];
  const maps = new SourceMaps();
  const formatDefault = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, trace) => {
    const frames = trace.map((site) => {
      const text = String(site);
      const file = site.getFileName() ?? undefined;
      if (!file?.endsWith(".js") || !prefixes.some((p) => file.startsWith(p))) return text;
      return mappedFrame(text, file, site, maps);
    });
    return `${errorHeader(error, trace, formatDefault)}${frames.map((f) => FRAME + f).join("")}`;
  };
  return () => {
    Error.prepareStackTrace = formatDefault;
  };
}

/** The first line(s) of a trace as Node would print them (`TypeError [ERR_X]: message`). */
function errorHeader(
  error: Error,
  trace: NodeJS.CallSite[],
  formatDefault: typeof Error.prepareStackTrace,
): string {
  if (formatDefault) {
    const text = String(formatDefault(error, trace));
    const frames = trace.map((site) => FRAME + String(site)).join("");
    if (text.endsWith(frames)) return text.slice(0, text.length - frames.length);
  }
  return Error.prototype.toString.call(error);
}

/** `text` (V8's frame) with its `file:line:column` replaced by the original place, if mapped. */
function mappedFrame(text: string, file: string, site: NodeJS.CallSite, maps: SourceMaps): string {
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (line === null || column === null) return text;
  const place = maps.originalPosition(file, line, column);
  if (!place) return text;
  const generated = `${file}:${line}:${column}`;
  const at = text.lastIndexOf(generated);
  const original = `${place.file}:${place.line}:${place.column}`;
  return at === -1 ? text : text.slice(0, at) + original + text.slice(at + generated.length);
}
