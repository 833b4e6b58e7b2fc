/**
 * After `wisent build`: V8's compiled code of the build's bundles put in Node's module compile
 * cache, which the wisent bin turns on (in an app's folder: the app's `tmp/compile-cache`), so
 * that the first `wisent start` or `wisent routes` after a build does not compile them. Without
 * a cache a start used about a fifth more CPU (bench/load/RESULTS-cold-start.md).
 * @module
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const STOP = "wisent: compile only";

/** Node 22's compile cache functions (the project's @types/node describes Node 20). */
const cacheApi = module as unknown as {
  getCompileCacheDir?: () => string | undefined;
  flushCompileCache?: () => void;
};

/**
 * Compiles `files` (absolute paths of ES modules) into the compile cache without running them,
 * and writes the cache to disk. Does nothing when no cache is on (the bin did not turn it on, or
 * NODE_DISABLE_COMPILE_CACHE is set); never fails: a module that does not compile is left to
 * fail where it runs. Resolves with whether the modules were compiled.
 * @example await warmCompileCache([join(cwd, "dist/server.js"), join(cwd, "dist/app.js")]);
 */
export async function warmCompileCache(files: readonly string[]): Promise<boolean> {
  const cache = cacheApi.getCompileCacheDir?.();
  if (!cache) return false;
  // ES modules are all compiled before any of them runs, and run in import order: importing the
  // bundles after a module that throws compiles them (and caches the code) but runs none. The
  // two small modules doing it are cached too: always at the same place, so once.
  const dir = join(cache, "warm");
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, "stop.mjs"), `throw new Error(${JSON.stringify(STOP)});\n`);
    const imports = ["./stop.mjs", ...files.map((file) => pathToFileURL(file).href)];
    writeFileSync(
      join(dir, "entry.mjs"),
      imports.map((specifier) => `import ${JSON.stringify(specifier)};\n`).join(""),
    );
    try {
      await import(pathToFileURL(join(dir, "entry.mjs")).href);
    } catch (error) {
      if ((error as Error | undefined)?.message !== STOP) return false;
    }
    cacheApi.flushCompileCache?.();
    return true;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
