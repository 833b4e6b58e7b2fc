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
 * Which build of the framework an app's build bundled: its version and when its bundle was made.
 * An app's build made with another (an upgrade, a rebuilt checkout) is stale.
 */
export function frameworkIdentity(): string {
  const root = packageRoot();
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const bundle = join(root, "dist/bundle/index.js");
  return `${version}@${existsSync(bundle) ? statSync(bundle).mtimeMs : "source"}`;
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
  const { framework } = JSON.parse(readFileSync(stamp, "utf8")) as { framework?: string };
  if (framework !== frameworkIdentity()) return { state: "stale", changed: "the wisent package" };
  const builtAt = statSync(stamp).mtimeMs;
  const changed = newerSource(cwd, builtAt);
  return changed === undefined ? { state: "fresh" } : { state: "stale", changed };
}

/** The first source file (relative path) modified after `time`, if any. */
function newerSource(cwd: string, time: number): string | undefined {
  for (const file of SOURCE_FILES) {
    const path = join(cwd, file);
    if (existsSync(path) && statSync(path).mtimeMs > time) return file;
  }
  for (const dir of SOURCE_DIRS) {
    const root = join(cwd, dir);
    if (!existsSync(root)) continue;
    // A removed file changes the folder's own mtime, so deletions count too.
    if (statSync(root).mtimeMs > time) return `${dir}/`;
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name);
      if (statSync(path).mtimeMs > time) return join(dir, path.slice(root.length + 1));
    }
  }
  return undefined;
}
