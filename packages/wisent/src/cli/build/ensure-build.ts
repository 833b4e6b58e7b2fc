/**
 * A build that is current before anything runs from it: `wisent start` (and its workers) and
 * `wisent migrate` call {@link ensureBuild}, which builds only when `dist/` is missing or older
 * than the sources. Builds are serialised by a lock folder, so several processes started at once
 * in one app (workers, parallel test servers) build once and never read a half-written `dist/`.
 * @module
 */
import { existsSync, mkdirSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { WisentError } from "../../base/wisent-error.js";
import { type BuildResult, buildApp } from "./build-app.js";
import { type BuildState, buildState } from "./build-state.js";

const LOCK = ".wisent/build.lock";
/** A lock older than this was left by a build that died: taken over. */
const STALE_LOCK_MS = 60_000;
const WAIT_MS = 90_000;

/** Why a build ran: the state it replaced. */
export interface EnsuredBuild {
  readonly built: false | { readonly reason: BuildState; readonly result: BuildResult };
}

/**
 * Builds the app in `cwd` unless its build is fresh, and says whether (and why) it built, so the
 * caller can print one line. Without sources (`src/` absent: an image that ships only `dist/`) the build is
 * taken as it is.
 * @example const { built } = await ensureBuild(cwd);
 */
export async function ensureBuild(cwd: string): Promise<EnsuredBuild> {
  if (!existsSync(join(cwd, "src"))) return { built: false };
  const before = buildState(cwd);
  if (before.state === "fresh") return { built: false };
  const release = await lock(cwd, reasonOf(before));
  try {
    // Another process may have built while this one waited for the lock.
    const reason = buildState(cwd);
    if (reason.state === "fresh") return { built: false };
    return { built: { reason, result: await buildApp(cwd) } };
  } finally {
    release();
  }
}

/** One line saying what was built and why. */
export function describeBuild(built: Exclude<EnsuredBuild["built"], false>): string {
  return `dist/ (${reasonOf(built.reason)}) in ${(built.result.ms / 1000).toFixed(2)} s`;
}

/** Why a build is wanted: `src/app.ts changed since the last build`, `there was no build`. */
function reasonOf(state: BuildState): string {
  return state.state === "stale"
    ? `${state.changed} changed since the last build`
    : "there was no build";
}

async function lock(cwd: string, why: string): Promise<() => void> {
  const path = join(cwd, LOCK);
  try {
    mkdirSync(join(cwd, ".wisent"), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw error;
    // An image's app folder belongs to whoever built it: say why a build was wanted there.
    throw new WisentError(
      "E_BUILD",
      `dist/ must be built (${why}), but this user cannot write ${join(cwd, ".wisent")} (${code}): run \`wisent build\` where the app is built (the Dockerfile's build stage does), after the last change to its sources`,
    );
  }
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(path);
      return () => rmdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_LOCK_MS) rmdirSync(path);
    } catch {
      // Released meanwhile: try again.
    }
    if (Date.now() > deadline) {
      throw new WisentError(
        "E_BUILD",
        `another build of this app holds ${LOCK}; remove it if no build is running`,
      );
    }
    await sleep(25);
  }
}
