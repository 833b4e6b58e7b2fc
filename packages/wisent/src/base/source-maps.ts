/**
 * Where a line of a compiled file came from, read from the source map beside it (`<file>.map`,
 * as `wisent build` and esbuild write it). Used only once something went wrong (a stack trace
 * is made, an error page is shown), so that nothing reads a map at start-up.
 * @module
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A place in an original source file. */
export interface OriginalPosition {
  /** The original file's absolute path (or the map's own name for a source that is no file). */
  readonly file: string;
  /** 1-based, as stack traces count. */
  readonly line: number;
  /** 1-based, as stack traces count. */
  readonly column: number;
}

interface LoadedMap {
  readonly map: SourceMap;
  /** The sources' text by file, where the map carries it. */
  readonly contents: ReadonlyMap<string, string>;
}

/**
 * The source maps of compiled files, each read on first need and kept.
 *
 * @example
 * const maps = new SourceMaps();
 * maps.originalPosition("/app/dist/server.js", 812, 5); // { file: "/app/src/app.ts", line: 45, column: 28 }
 */
export class SourceMaps {
  readonly #maps = new Map<string, LoadedMap | undefined>();

  /**
   * The original place of `line`:`column` (1-based) of the compiled `file` (a path or a
   * `file:` URL), or undefined when the file has no readable map or the place maps to none.
   */
  originalPosition(file: string, line: number, column: number): OriginalPosition | undefined {
    const loaded = this.#load(file);
    if (!loaded) return undefined;
    // Source maps count lines and columns from 0, stack traces from 1.
    const entry = loaded.map.findEntry(line - 1, column - 1);
    if (!("originalSource" in entry) || !entry.originalSource) return undefined;
    return {
      file: entry.originalSource,
      line: entry.originalLine + 1,
      column: entry.originalColumn + 1,
    };
  }

  /** The text of an original source as a map read so far carries it (`sourcesContent`), if any. */
  contentOf(source: string): string | undefined {
    for (const loaded of this.#maps.values()) {
      const text = loaded?.contents.get(source);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  #load(file: string): LoadedMap | undefined {
    const path = file.startsWith("file:") ? fileURLToPath(file) : file;
    if (!this.#maps.has(path)) this.#maps.set(path, readSourceMap(path));
    return this.#maps.get(path);
  }
}

/** The map of `file` with its sources as absolute paths, or undefined when it has none. */
function readSourceMap(file: string): LoadedMap | undefined {
  try {
    const payload = JSON.parse(readFileSync(`${file}.map`, "utf8")) as {
      sources: string[];
      sourceRoot?: string;
      sourcesContent?: (string | null)[];
    };
    const base = pathToFileURL(join(dirname(file), "/"));
    payload.sources = payload.sources.map((source) => {
      const url = new URL(`${payload.sourceRoot ?? ""}${source}`, base);
      return url.protocol === "file:" ? fileURLToPath(url) : source;
    });
    payload.sourceRoot = "";
    const contents = new Map<string, string>();
    payload.sources.forEach((source, i) => {
      const text = payload.sourcesContent?.[i];
      if (typeof text === "string") contents.set(source, text);
    });
    return { map: new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]), contents };
  } catch {
    return undefined;
  }
}
