/**
 * Apps for the slow generator suites (full-tests-web, full-tests-api, authentication): made by `wisent new --dev`
 * with this checkout's node_modules, and the tools run inside them as from a person's shell.
 */
import { execFile } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { runCli } from "../../cli.js";
import { memoryIO } from "../../io.js";
import { cleanEnv } from "../../test-support/clean-env.js";

const run = promisify(execFile);
const REPO = new URL("../../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
/** A budget for the slow steps (making an app, running its tests). */
export const SLOW = 300_000;
/** The repository's tools, run inside a generated app. */
export const tool = {
  tsc: join(REPO, "node_modules/typescript/bin/tsc"),
  biome: join(REPO, "node_modules/@biomejs/biome/bin/biome"),
  vitest: join(REPO, "node_modules/vitest/vitest.mjs"),
};

/** Every attribute type, once. */
export const EVERY_TYPE = [
  "title",
  "body:text",
  "summary:nulls.Text",
  "nick:nulls.String",
  "views:int",
  "rank:nulls.Int",
  "big:bigint",
  "active:bool",
  "score:float",
  "weight:nulls.Float",
  "price:decimal",
  "cost:decimal{8.3}",
  "opens:time",
  "published_at:datetime",
  "seen_at:timestamp",
  "checked_at:nulls.Time",
  "day:date",
  "ref:uuid",
  "maybe:nulls.UUID",
  "meta:json",
];

/** Runs a Node script in the app, as from a person's shell: its exit code and output. */
export async function inApp(
  dir: string,
  file: string,
  args: string[],
  env: Record<string, string> = {},
) {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], {
      cwd: dir,
      env: cleanEnv(env),
      maxBuffer: 10 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

/** `tsc --noEmit` and `biome check .` in the app, as its developer runs them: both pass clean. */
export async function expectTypeChecksAndLints(dir: string): Promise<void> {
  const tsc = await inApp(dir, tool.tsc, ["--noEmit"]);
  expect(tsc.output).toBe("");
  const biome = await inApp(dir, tool.biome, ["check", "."]);
  expect(biome.code, biome.output).toBe(0);
}

/** Runs the CLI in `dir`, expecting success: what it printed. */
export async function wisent(dir: string, args: string[]): Promise<string> {
  const { io, stdout, stderr } = memoryIO({ cwd: dir });
  const code = await runCli(args, io);
  expect(code, stdout() + stderr()).toBe(0);
  return stdout();
}

/** `wisent new NAME --dev` in `root`, with this checkout's node_modules linked. */
export async function newApp(root: string, name: string, flags: string[] = []): Promise<string> {
  await wisent(root, ["new", name, "--dev", "--skip-install", ...flags]);
  const dir = join(root, name);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** Migrates the app's test database at `url` (SQLite by default), then runs the app's tests. */
export async function migrateAndTest(dir: string, env: Record<string, string> = {}) {
  const migrate = await inApp(dir, BIN, ["migrate"], { GO_ENV: "test", ...env });
  expect(migrate.code, migrate.output).toBe(0);
  return inApp(dir, tool.vitest, ["run"], env);
}
