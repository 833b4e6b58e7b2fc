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
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

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
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      maps.set(file, readSourceMap(file.startsWith("file:") ? fileURLToPath(file) : file));
    }
    return maps.get(file);
  };
  const formatDefault = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, trace) => {
    const frames = trace.map((site) => {
      const text = String(site);
      const file = site.getFileName() ?? undefined;
      if (!file?.endsWith(".js") || !prefixes.some((p) => file.startsWith(p))) return text;
      return mappedFrame(text, file, site, mapOf(file));
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
function mappedFrame(
  text: string,
  file: string,
  site: NodeJS.CallSite,
  map: SourceMap | undefined,
): string {
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!map || line === null || column === null) return text;
  // Source maps count lines and columns from 0, stack traces from 1.
  const entry = map.findEntry(line - 1, column - 1);
  if (!("originalSource" in entry)) return text;
  const generated = `${file}:${line}:${column}`;
  const original = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  const at = text.lastIndexOf(generated);
  return at === -1 ? text : text.slice(0, at) + original + text.slice(at + generated.length);
}

/** The map of `file` with its sources as absolute paths, or undefined when it has none. */
function readSourceMap(file: string): SourceMap | undefined {
  try {
    const payload = JSON.parse(readFileSync(`${file}.map`, "utf8")) as {
      sources: string[];
      sourceRoot?: string;
    };
    const base = pathToFileURL(join(dirname(file), "/"));
    payload.sources = payload.sources.map((source) => {
      const url = new URL(`${payload.sourceRoot ?? ""}${source}`, base);
      return url.protocol === "file:" ? fileURLToPath(url) : source;
    });
    payload.sourceRoot = "";
    return new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return undefined;
  }
}
