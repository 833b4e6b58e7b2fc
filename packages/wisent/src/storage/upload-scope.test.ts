import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeLeftoverUploads, temporaryUploadFolder } from "./upload-scope.js";

const root = mkdtempSync(join(tmpdir(), "wisent-upload-scope-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The id of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

/** A temporary upload file left in `tmp/uploads/<name>/` of the app folder `cwd`. */
function leave(cwd: string, name: string): string {
  const folder = join(cwd, "tmp", "uploads", name);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "01a2-left-behind");
  writeFileSync(file, "bytes");
  return file;
}

describe("temporaryUploadFolder", () => {
  it("is tmp/uploads/<pid> of the app's folder", () => {
    expect(temporaryUploadFolder("/srv/shop")).toBe(`/srv/shop/tmp/uploads/${process.pid}`);
  });
});

describe("removeLeftoverUploads", () => {
  it("removes the folders of processes that ended and its own, and keeps a running process's", async () => {
    const cwd = mkdtempSync(join(root, "app-"));
    const dead = leave(cwd, String(await deadPid()));
    const own = leave(cwd, String(process.pid));
    // The parent process runs: as a sibling worker of `wisent start --workers 2` would.
    const sibling = leave(cwd, String(process.ppid));
    const stray = join(cwd, "tmp", "uploads", "wisent-upload-stray");
    writeFileSync(stray, "bytes");
    await removeLeftoverUploads(cwd);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(own)).toBe(false);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(sibling)).toBe(true);
  });

  it("does nothing for an app that has no uploads folder", async () => {
    const cwd = mkdtempSync(join(root, "app-"));
    await removeLeftoverUploads(cwd);
    expect(existsSync(join(cwd, "tmp"))).toBe(false);
  });
});
