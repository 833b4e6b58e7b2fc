/**
 * Whether an app's compiled build (`dist/`) can be run as it is: it exists, and no source it was
 * made from has changed since. One rule for `wisent start`, `wisent migrate` and the tools that
 * load the app, so that none of them runs code older than the files the developer sees.
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../base/package-root.js";

/** The build's output folder, relative to the app's root. */
export const BUILD_DIR = "dist";
/** Written last by a successful build: its time is the build's time. */
export const BUILD_STAMP = "dist/.wisent-build.json";
/** The bundled server that `wisent start` runs. */
export const BUILD_SERVER = "dist/server.js";
/** The app module (exports `app`), bundled for tools. */
export const BUILD_APP = "dist/app.js";
/** The compiled migrations. */
export const BUILD_MIGRATIONS = "dist/migrations";

/** What a build is made from: every file here can change what the build does. */
const SOURCE_DIRS = ["src", "migrations"];
// (Not package-lock.json: `npm prune` rewrites it with the same content, and the Dockerfile prunes.)
const SOURCE_FILES = ["package.json", "tsconfig.json"];

/**
 * Which build of the framework an app's build bundled: its version, and its bundle's size and
 * modification time in whole seconds (a copy that keeps times may round them: cp to the
 * millisecond, an image layer's tar to the second). An app's build made with another (an
 * upgrade, a rebuilt checkout) is stale.
 */
export function frameworkIdentity(): string {
  const root = packageRoot();
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const bundle = statSync(join(root, "dist/bundle/index.js"), { throwIfNoEntry: false });
  return `${version}@${bundle ? `${bundle.size}:${Math.floor(bundle.mtimeMs / 1000)}` : "source"}`;
}

/**
 * The source files a build is made from (relative paths, sorted): recorded in the build's stamp,
 * so an added or removed file makes the build stale without reading folders' modification times,
 * which a copy (an image's COPY, a deploy's rsync) may not keep.
 * @example writeStamp({ sources: sourceFiles(cwd) });
 */
export function sourceFiles(cwd: string): string[] {
  const files = SOURCE_FILES.filter((file) => existsSync(join(cwd, file)));
  for (const dir of SOURCE_DIRS) {
    const root = join(cwd, dir);
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (entry.isDirectory()) continue;
      files.push(join(dir, join(entry.parentPath, entry.name).slice(root.length + 1)));
    }
  }
  return files.sort();
}

export type BuildState =
  | { readonly state: "fresh" }
  | { readonly state: "missing" }
  | { readonly state: "stale"; readonly changed: string };

/**
 * `fresh` when `dist/` holds a complete build newer than every source file, `missing` when there is
 * none, `stale` (naming the first newer source) otherwise.
 * @example if (buildState(cwd).state !== "fresh") await buildApp(cwd);
 */
export function buildState(cwd: string): BuildState {
  const stamp = join(cwd, BUILD_STAMP);
  if (!existsSync(stamp) || !existsSync(join(cwd, BUILD_SERVER))) return { state: "missing" };
  const { framework, sources } = JSON.parse(readFileSync(stamp, "utf8")) as {
    framework?: string;
    sources?: string[];
  };
  if (framework !== frameworkIdentity()) return { state: "stale", changed: "the wisent package" };
  const changed = changedSource(cwd, statSync(stamp).mtimeMs, sources ?? []);
  return changed === undefined ? { state: "fresh" } : { state: "stale", changed };
}

/**
 * The first source file (relative path) added, removed or modified since the build made at
 * `time` from `built` (its source list), if any.
 */
function changedSource(cwd: string, time: number, built: readonly string[]): string | undefined {
  const now = sourceFiles(cwd);
  const before = new Set(built);
  for (const file of now) {
    if (!before.has(file) || statSync(join(cwd, file)).mtimeMs > time) return file;
  }
  if (now.length !== before.size) {
    const present = new Set(now);
    return built.find((file) => !present.has(file));
  }
  return undefined;
}
