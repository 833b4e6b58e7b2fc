/**
 * Slow: the CLI's database commands, many times over, on the Node running the tests (CI: Node
 * 24, where `wisent migrate` once aborted in a native assertion as the process exited). 200 runs
 * of `wisent migrate` and `wisent migrate down` as separate processes, in 4 parallel lanes (so
 * other CLI processes run at the same time, as they did when it aborted), each lane on its own
 * SQLite file of one app. Every run must exit 0 by itself: no signal, no native assertion.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/bin/wisent.js");
const RUNS = 200;
const LANES = 4;

interface Run {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

let root: string;
let app: string;

function wisent(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: app, env: cleanEnv(env) },
      (_error, _stdout, stderr) =>
        resolve({ args, code: child.exitCode, signal: child.signalCode, stderr }),
    );
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-migrate-stress-"));
  const { io, stderr } = memoryIO({ cwd: root });
  expect(await runCli(["new", "stress", "--dev", "--skip-install", "--skip-git"], io)).toBe(0);
  expect(stderr()).toBe("");
  app = join(root, "stress");
  symlinkSync(join(REPO, "node_modules"), join(app, "node_modules"), "dir");
  const generated = memoryIO({ cwd: app });
  expect(await runCli(["g", "r", "widget", "title", "views:int"], generated.io)).toBe(0);
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("wisent migrate, run again and again", () => {
  it(`exits 0 by itself in ${RUNS} runs of migrate and migrate down`, {
    timeout: 1_200_000,
  }, async () => {
    const failures: Run[] = [];
    const lane = async (n: number) => {
      const env = { DATABASE_URL: `sqlite:${join(root, `lane-${n}.sqlite`)}` };
      for (let i = 0; i < RUNS / LANES; i++) {
        const run = await wisent(i % 2 === 0 ? ["migrate"] : ["migrate", "down"], env);
        if (run.code !== 0 || run.signal !== null || /Assertion|FATAL/.test(run.stderr)) {
          failures.push(run);
          // Said at once: a run of this length is worth reading while it goes on.
          console.error(`wisent ${run.args.join(" ")}: ${run.code ?? run.signal}\n${run.stderr}`);
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
    expect(failures).toEqual([]);
  });
});
