/**
 * Which Chromium the browser tests drive, and how it is launched: Debian's `/usr/bin/chromium`
 * when the machine has it, otherwise the Chromium that ships inside the `@sparticuz/chromium` npm
 * package (a dev dependency, so `npm ci` alone brings a browser). Nothing is ever downloaded at
 * run time: the npm Chromium is unpacked from the package's own files.
 *
 * Environment:
 * - `WISENT_SKIP_BROWSER=1` skips the browser tests (the only way they are skipped; a browser that
 *   cannot be found or started is a failing test).
 * - `WISENT_SYSTEM_CHROMIUM=<path>` is where the system Chromium is looked for (default
 *   `/usr/bin/chromium`); point it at a missing path to run the tests with the npm Chromium.
 *
 * @example
 * const { source, executablePath } = await chooseChromium();
 * const browser = await launchChromium();
 * @module
 */
import { spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";

export const SKIP_BROWSER_ENV = "WISENT_SKIP_BROWSER";
export const SYSTEM_CHROMIUM_ENV = "WISENT_SYSTEM_CHROMIUM";
export const DEFAULT_SYSTEM_CHROMIUM = "/usr/bin/chromium";

/**
 * The flags every launch gets. Headless, no sandbox (the tests run as root on CI, where Chromium
 * refuses to start sandboxed, and they only open pages on 127.0.0.1), and none of the background
 * traffic the closed network would refuse: component updates, sync, Google lookups, QUIC.
 * Playwright gives every launch a fresh, empty user data dir of its own.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface ChromiumChoice {
  /** `system`: the machine's Chromium; `npm`: the one unpacked from `@sparticuz/chromium`. */
  source: "system" | "npm";
  executablePath: string;
  /** The environment to start it in. */
  env: NodeJS.ProcessEnv;
}

/** True only when the browser tests were asked to be skipped (`WISENT_SKIP_BROWSER=1`). */
export function browserTestsSkipped(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SKIP_BROWSER_ENV] === "1";
}

/** The system Chromium when it is there and executable, otherwise the npm one (unpacked once). */
export function chooseChromium(env: NodeJS.ProcessEnv = process.env): ChromiumChoice {
  const system = env[SYSTEM_CHROMIUM_ENV] || DEFAULT_SYSTEM_CHROMIUM;
  if (isExecutable(system)) return { source: "system", executablePath: system, env };
  const dir = unpackedNpmChromium();
  // The package's NSS libraries (built for Amazon Linux, which it targets) go first on the
  // library path, so the npm Chromium starts on a machine without libnss3 as well.
  const libs = join(dir, "al2023", "lib");
  const libraryPath = [libs, env.LD_LIBRARY_PATH].filter(Boolean).join(":");
  return {
    source: "npm",
    executablePath: join(dir, "chromium"),
    env: { ...env, LD_LIBRARY_PATH: libraryPath },
  };
}

/** Launches the chosen Chromium headless under playwright-core, with {@link CHROMIUM_ARGS}. */
export async function launchChromium(env: NodeJS.ProcessEnv = process.env): Promise<Browser> {
  const choice = chooseChromium(env);
  return chromium.launch({
    executablePath: choice.executablePath,
    args: [...CHROMIUM_ARGS],
    env: choice.env as Record<string, string>,
    timeout: 30_000,
  });
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The directory holding the npm Chromium (`chromium`, its SwiftShader libraries, `al2023/lib`),
 * one per package version under the temp dir. The package unpacks into `os.tmpdir()`, so a child
 * process does it with `TMPDIR` set to a private staging dir, which is then renamed into place:
 * test files running in parallel (and other checkouts) never see a half-written binary.
 */
export function unpackedNpmChromium(): string {
  const entry = fileURLToPath(import.meta.resolve("@sparticuz/chromium"));
  const root = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = join(tmpdir(), `wisent-chromium-${version}`);
  if (existsSync(join(dir, "chromium"))) return dir;
  const staging = mkdtempSync(`${dir}-staging-`);
  const script = `
    import chromium, { inflate } from "@sparticuz/chromium";
    import { join } from "node:path";
    const binary = await chromium.executablePath();
    await inflate(join(${JSON.stringify(root)}, "bin", "al2023.tar.br"));
    console.log(binary);`;
  const unpacked = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    env: { ...process.env, TMPDIR: staging },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (unpacked.status !== 0 || !existsSync(join(staging, "chromium"))) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `could not unpack the npm Chromium (@sparticuz/chromium ${version}): ${unpacked.stderr || unpacked.error}`,
    );
  }
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another process renamed its own copy into place first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, "chromium"))) throw error;
  }
  return dir;
}
