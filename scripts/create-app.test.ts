/**
 * Slow (a minute or two: packing, a local registry, `npm create`): the README's way to make an
 * app outside the checkout before the packages are published, run as printed from another
 * folder: `npm --prefix <checkout> run create-app -- <name>` makes the app in the folder the
 * command was typed in, never in the checkout. Needs the build (`npm run build`).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { cleanNpmEnv, NPM, REPO } from "./local-registry/index.mjs";

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), "wisent-outside-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the README's create-app outside the checkout", { timeout: 300_000 }, () => {
  it("makes the app in the folder the command runs from", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    // `cd ~/code && npm --prefix ~/src/wisent run create-app -- myapp`, this checkout for ~/src/wisent.
    const printed = /cd \S+ && npm --prefix (\S+) run create-app -- (\S+)/.exec(readme);
    expect(printed, "the README shows the command").not.toBeNull();
    const name = printed![2]!;
    const args = [
      "--prefix",
      REPO,
      "run",
      "create-app",
      "--",
      name,
      "--skip-install",
      "--skip-git",
    ];
    await run(NPM, args, { cwd: folder, env: cleanNpmEnv(process.env), maxBuffer: 64 << 20 });
    expect(JSON.parse(readFileSync(join(folder, name, "package.json"), "utf8")).name).toBe(name);
    expect(existsSync(join(REPO, name))).toBe(false);
  });
});
