/**
 * `wisent build`'s work: the app's TypeScript compiled to plain JavaScript in `dist/` with
 * esbuild, so production starts without a TypeScript loader:
 *
 * - `dist/server.js`: `src/server.ts` bundled with the framework and every pure-JavaScript
 *   dependency. One file instead of hundreds of modules is most of a fast cold start: the shop
 *   starts in about half the time of the same code compiled file by file (bench/load/cold-start.mjs).
 * - `dist/app.js`: `src/app.ts` bundled the same way, for the tools that load the app (`routes`).
 * - `dist/migrations/*.js`: each migration compiled on its own (its imports stay imports), for
 *   `wisent migrate` in an image without TypeScript.
 * - every other file under `src/` (locale JSON, ...) copied beside them, so a path made from
 *   `import.meta.url` in `src/app.ts` (`./locales/`) finds the same file from `dist/app.js`.
 *
 * Native addons and the database drivers stay outside the bundle: they are loaded from
 * `node_modules` at run time (and the drivers only by an app whose URL needs them).
 * @module
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import {
  BUILD_DIR,
  BUILD_MIGRATIONS,
  BUILD_STAMP,
  frameworkIdentity,
  sourceFiles,
} from "./build-state.js";
import { builtinsWithoutFacade } from "./builtins-without-facade.js";

/** Packages never bundled: native addons, optional drivers, and what they load dynamically. */
export const EXTERNAL_PACKAGES = [
  "better-sqlite3",
  "pg",
  "pg-native",
  "pg-cloudflare",
  "mysql2",
  "ioredis",
  "esbuild",
  "tsx",
  "fsevents",
  // The development error page: loaded on a first error only, it reads its assets next to itself.
  "youch",
];

/**
 * Lets the bundled CommonJS dependencies `require()` Node's built-ins (and the external drivers)
 * from an ES module, which has no `require` of its own.
 */
const REQUIRE_SHIM =
  'import { createRequire as __wisentCreateRequire } from "node:module";\n' +
  "const require = __wisentCreateRequire(import.meta.url);";

/** What a build made. */
export interface BuildResult {
  /** Files written, relative to the app's root, in a stable order. */
  readonly files: readonly string[];
  /** Wall time in milliseconds. */
  readonly ms: number;
}

/**
 * Compiles the app in `cwd` into `dist/` (replacing an earlier build) and resolves with what it
 * wrote; rejects with esbuild's messages (file, line, text) when the sources do not compile.
 * @example const { files } = await buildApp(process.cwd()); // ["dist/server.js", ...]
 */
export async function buildApp(cwd: string): Promise<BuildResult> {
  const started = performance.now();
  const { build } = await import("esbuild");
  const out = join(cwd, BUILD_DIR);
  rmSync(out, { recursive: true, force: true });

  const common = {
    absWorkingDir: cwd,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    // Maps without the sources' text (the .ts files are next to dist/): Node reads the whole map
    // of every module loaded while source maps are on, and the text of the framework and its
    // dependencies was three quarters of its bytes, about a tenth of the start-up
    // (bench/load/RESULTS-cold-start.md). Traces still name the .ts lines.
    sourcesContent: false,
    // The app's tsconfig.json (JSX import source, ...) applies as it does for tsc.
    logLevel: "silent",
    legalComments: "none",
  } as const;

  const entries = ["src/server.ts", "src/app.ts"].filter((file) => existsSync(join(cwd, file)));
  await build({
    ...common,
    entryPoints: entries.map((file) => ({ in: file, out: file.slice(4, -3) })),
    outdir: out,
    bundle: true,
    // Whitespace and syntax minified: a third fewer bytes for V8 to read at every start (its
    // largest single cost in a CPU profile of the shop's start). Identifiers are kept, so class
    // and function names (route names in logs, adapter detection) need no esbuild `keepNames`,
    // whose `__name()` call on every closure created cost ~12 us of a JSON show under load
    // (bench/load/profile.mjs); the source maps keep stack traces on the .ts lines.
    minifyWhitespace: true,
    minifySyntax: true,
    // Lines of a readable length: Node prints the line of an uncaught exception's place in the
    // build (traces are mapped to the .ts lines lazily, start/build-stack-traces.ts, so Node
    // has no map to print the .ts line from), and a minified line ran to 300 KB.
    lineLimit: 160,
    external: EXTERNAL_PACKAGES,
    banner: { js: REQUIRE_SHIM },
    plugins: [builtinsWithoutFacade()],
  });

  const migrations = migrationFiles(cwd);
  if (migrations.length > 0) {
    await build({
      ...common,
      entryPoints: migrations.map((file) => join("migrations", file)),
      outdir: join(cwd, BUILD_MIGRATIONS),
      bundle: true,
      // A migration imports the framework (createTable, sql): the installed package, not a copy.
      packages: "external",
    });
  }

  copyAssets(cwd);
  // Listed before the stamp is written: a source saved during the build is newer than the stamp.
  const sources = sourceFiles(cwd);
  writeFileSync(
    join(cwd, BUILD_STAMP),
    `${JSON.stringify({ builtBy: "wisent build", framework: frameworkIdentity(), entries, migrations, sources }, null, 2)}\n`,
  );
  return { files: listFiles(cwd, out), ms: performance.now() - started };
}

/** The migration sources: `migrations/*.ts`, tests and declarations aside. */
function migrationFiles(cwd: string): string[] {
  const folder = join(cwd, "migrations");
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => /\.(m|c)?tsx?$/.test(f) && !f.endsWith(".d.ts") && !/\.test\./.test(f))
    .sort();
}

/** Copies every file under `src/` that is not code (locales, ...) to the same place in `dist/`. */
function copyAssets(cwd: string): void {
  const src = join(cwd, "src");
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(m|c)?[jt]sx?$/.test(entry.name)) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(cwd, BUILD_DIR, relative(src, from));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to);
  }
}

function listFiles(cwd: string, dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(cwd, join(e.parentPath, e.name)))
    .sort();
}
