/**
 * The Wisent apps the load bench runs, both made by the CLI and started as a user starts them
 * (`wisent start` in the app's folder):
 *   - the web app: examples/shop itself (its widgets resource; made by scripts/example.mjs);
 *   - the API app: generated at bench start into bench/load/apps/generated/shop (git-ignored,
 *     inside the repository so `wisent`, hono and zod resolve from the root node_modules) by
 *       wisent new shop --api --dev --skip-install
 *       wisent g r widget title description:nulls.Text
 * Databases are migrated with the app's own migrations (`wisent migrate`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The built CLI itself (what the bin loads), for the bench's own setup commands. */
export const CLI = join(ROOT, "packages/wisent/dist/cli/main.js");
/**
 * The CLI as `npx wisent` and an app's `node_modules/.bin/wisent` run it: the package's bin, which
 * turns on Node's module compile cache before loading {@link CLI}.
 */
export const BIN = join(ROOT, "packages/wisent/bin/wisent.js");
/** The web variant: the example shop as the CLI made it. */
export const SHOP = join(ROOT, "examples/shop");
const GENERATED = fileURLToPath(new URL("../apps/generated/", import.meta.url));
/** The API variant's folder (exists once {@link generateApiApp} or {@link apiApp} ran). */
export const API_APP = join(GENERATED, "shop");

/** Runs `wisent <args>` in `cwd`; returns its stdout, throws with its output on failure. */
export function wisent(cwd, args, env = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  if (result.status !== 0) {
    throw new Error(
      `wisent ${args.join(" ")} failed in ${cwd} (${result.status}):\n${result.stdout}${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * Makes the API app afresh with the CLI. It is built in a sibling folder and then swapped in, so
 * a server another bench process starts meanwhile never sees a half-made app.
 */
export function generateApiApp() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const work = join(GENERATED, `.making-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  wisent(work, ["new", "shop", "--api", "--dev", "--skip-install"]);
  wisent(join(work, "shop"), ["g", "r", "widget", "title", "description:nulls.Text"]);
  const old = join(GENERATED, `.old-${process.pid}`);
  if (existsSync(API_APP)) renameSync(API_APP, old);
  renameSync(join(work, "shop"), API_APP);
  rmSync(old, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  generatedHere = true;
  return API_APP;
}

let generatedHere = false;

/** The API app's folder, generated once per bench process (fresh from the current CLI). */
export function apiApp() {
  return generatedHere ? API_APP : generateApiApp();
}

/** The API app's folder, generated only when it does not exist yet (for tools run on their own). */
export function existingApiApp() {
  return existsSync(join(API_APP, "src/actions/widgets.ts")) ? API_APP : generateApiApp();
}

/** Runs the app's migrations against `databaseUrl` (`wisent migrate` in its folder). */
export function migrateApp(app, databaseUrl) {
  return wisent(app, ["migrate"], { DATABASE_URL: databaseUrl });
}
