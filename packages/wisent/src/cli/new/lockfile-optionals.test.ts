/**
 * The lock entries `wisent new` adds for optional dependencies the registry does not have, which
 * npm leaves out of package-lock.json and then its `npm ci` demands ("Missing: ... from lock
 * file"). e2e/install/ runs `npm ci` on a lock `npm create wisent` wrote.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { completeLockfile, unlockedOptionals } from "./lockfile-optionals.js";

/** The shape npm 11.19 writes for vite 8.4.0 (only the entries that matter here). */
function viteLock() {
  return {
    name: "readinglist",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "readinglist", devDependencies: { vitest: "^4.1.12" } },
      "node_modules/fsevents": {
        version: "2.3.3",
        dev: true,
        optional: true,
        os: ["darwin"],
      },
      "node_modules/vite": {
        version: "8.4.0",
        dev: true,
        optionalDependencies: { fsevents: "~2.3.3", "napi-windows-process-start-time": "^0.1.0" },
      },
      "node_modules/vitest": { version: "4.1.12", dev: true, dependencies: { vite: "^8.0.0" } },
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), "wisent-lockfile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("unlockedOptionals", () => {
  it("finds the optional dependency npm left out, not the one it kept for another platform", () => {
    expect(unlockedOptionals(viteLock())).toEqual([
      {
        path: "node_modules/napi-windows-process-start-time",
        name: "napi-windows-process-start-time",
        dependent: "node_modules/vite",
        entry: { version: "0.1.0", dev: true, optional: true },
      },
    ]);
  });

  it("resolves as Node does (nested, then upward), nests when the hoisted place is taken, and skips ranges with no version", () => {
    const lock = {
      packages: {
        "": { name: "app", dependencies: { a: "^1.0.0", b: "^1.0.0" } },
        "node_modules/a": { version: "1.0.0", optionalDependencies: { c: "^2.0.0" } },
        "node_modules/a/node_modules/c": { version: "2.1.0", optional: true },
        "node_modules/b": {
          version: "1.0.0",
          optionalDependencies: { c: ">=3.1.0 <4", d: "latest", e: "github:x/e" },
        },
        "node_modules/c": { version: "1.0.0" },
      },
    };
    expect(unlockedOptionals(lock)).toEqual([
      {
        path: "node_modules/b/node_modules/c",
        name: "c",
        dependent: "node_modules/b",
        entry: { version: "3.1.0", optional: true },
      },
    ]);
  });

  it("adds nothing to a complete lock", () => {
    const lock = viteLock();
    lock.packages["node_modules/napi-windows-process-start-time" as "node_modules/fsevents"] = {
      version: "0.1.3",
      dev: true,
      optional: true,
      os: ["win32"],
    };
    expect(unlockedOptionals(lock)).toEqual([]);
  });
});

describe("completeLockfile", () => {
  it("writes the entries in npm's order and format, and only once", () => {
    const file = join(dir, "package-lock.json");
    writeFileSync(file, `${JSON.stringify(viteLock(), null, 2)}\n`);
    expect(completeLockfile(dir).map((added) => added.name)).toEqual([
      "napi-windows-process-start-time",
    ]);
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(Object.keys(JSON.parse(text).packages)).toEqual([
      "",
      "node_modules/fsevents",
      "node_modules/napi-windows-process-start-time",
      "node_modules/vite",
      "node_modules/vitest",
    ]);
    expect(completeLockfile(dir)).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("does nothing without a lock (wisent new --skip-install)", () => {
    expect(completeLockfile(join(dir, "none"))).toEqual([]);
  });
});
