/**
 * The one layout of a Wisent build that a bench compares this checkout against (an older commit,
 * or this tree before a change): bench/http/logger.mjs, bench/http/api-server-path.mjs,
 * bench/load/logger.mjs and bench/load/ab.mjs all take such folders.
 *
 *   <dir>/node_modules/wisent/{package.json,dist}   the build (tsc's dist and its bundle)
 *   <dir>/node_modules/hono                          its own Hono: each build adds to Hono's
 *                                                     Context.prototype, two sharing one would
 *                                                     both run the last one's additions
 *
 * The folder sits inside the repository (default bench/results/baseline, git-ignored), so that
 * kysely, zod, tsx and better-sqlite3 resolve from the root node_modules. Make one:
 *
 *   node bench/lib/baseline-build.mjs [dir]               from this checkout's current build
 *                                                         (run it before changing anything)
 *   node bench/lib/baseline-build.mjs [dir] --rev <rev>   from another commit, compiled here
 *
 * With `--shop`, examples/shop as of the same commit (or this checkout's) is put in `<dir>/app`,
 * which bench/load/ab.mjs and bench/load/ab-instructions.mjs then serve (the web chain).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Where a bench looks for the baseline build when none is named. */
export const DEFAULT_BASELINE = join(ROOT, "bench/results/baseline");
const PACKAGE = join(ROOT, "packages/wisent");

/** The dist folder of the build laid out in `dir`. */
export function buildDist(dir) {
  return join(resolve(ROOT, dir), "node_modules/wisent/dist");
}

/** Whether `dir` holds a laid-out build. */
export function hasBuild(dir) {
  return existsSync(join(buildDist(dir), "index.js"));
}

/** The `wisent` module of the build in `dir` (tsc's index, with the build's own Hono). */
export function importBuild(dir) {
  return import(pathToFileURL(join(buildDist(dir), "index.js")).href);
}

/** The CLI (`wisent`) of the build in `dir`. */
export function buildCli(dir) {
  return join(buildDist(dir), "cli/main.js");
}

/**
 * Lays out a build in `dir` (emptied first): this checkout's packages/wisent (its package.json
 * and dist, so run `npm run build` first), or the package as of commit `rev`, compiled and
 * bundled here as `npm run build` does.
 */
export function layOutBuild(dir, { rev } = {}) {
  const target = resolve(ROOT, dir);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, "node_modules"), { recursive: true });
  let from = PACKAGE;
  if (rev) {
    // The commit's package beside its tsconfig.base.json, so tsconfig.build.json's `extends` holds.
    const tree = join(target, "rev");
    mkdirSync(tree, { recursive: true });
    const archive = execFileSync("git", ["archive", rev, "tsconfig.base.json", "packages/wisent"], {
      cwd: ROOT,
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", tree], { input: archive });
    from = join(tree, "packages/wisent");
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    try {
      execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
        cwd: from,
        stdio: "inherit",
      });
    } catch (error) {
      // An older commit may not type-check against today's @types: tsc still emits its dist.
      if (!existsSync(join(from, "dist/index.js"))) throw error;
      console.warn(`${rev}: type errors against today's dependencies (its dist was emitted)`);
    }
    const bundle = join(from, "scripts/bundle-package.mjs");
    if (existsSync(bundle))
      execFileSync(process.execPath, [bundle], { cwd: from, stdio: "inherit" });
  }
  if (!existsSync(join(from, "dist/index.js"))) throw new Error(`${from}/dist: run npm run build`);
  const wisent = join(target, "node_modules/wisent");
  mkdirSync(wisent);
  cpSync(join(from, "package.json"), join(wisent, "package.json"));
  cpSync(join(from, "dist"), join(wisent, "dist"), { recursive: true });
  cpSync(join(ROOT, "node_modules/hono"), join(target, "node_modules/hono"), {
    recursive: true,
    dereference: true,
  });
  if (rev) rmSync(join(target, "rev"), { recursive: true, force: true });
  return target;
}

/** examples/shop as of `rev` (default: this checkout's files) in `<dir>/app`, for the web chain. */
export function layOutShop(dir, rev) {
  const app = join(resolve(ROOT, dir), "app");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  if (rev) {
    const archive = execFileSync("git", ["archive", rev, "examples/shop"], {
      cwd: ROOT,
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", app, "--strip-components=2"], { input: archive });
    return app;
  }
  const shop = join(ROOT, "examples/shop");
  const skipped = ["node_modules", "db", "tmp", "dist", "storage"].map((name) => join(shop, name));
  cpSync(shop, app, { recursive: true, filter: (src) => !skipped.includes(src) });
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--rev");
  const rev = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const shop = args.indexOf("--shop");
  if (shop >= 0) args.splice(shop, 1);
  const dir = layOutBuild(args[0] ?? DEFAULT_BASELINE, { rev });
  if (shop >= 0) layOutShop(dir, rev);
  console.log(`${rev ? `build of ${rev}` : "this build"} laid out in ${dir}`);
}
