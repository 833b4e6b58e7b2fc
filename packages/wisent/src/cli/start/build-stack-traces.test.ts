import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runInThisContext } from "node:vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapBuildStackTraces } from "./build-stack-traces.js";

let root = "";
let restore = () => {};

/**
 * Runs a compiled file as the given module name, exactly as written (a test runner would
 * transform an import and move its lines), and returns what it exposes.
 */
function load(file: string, name = pathToFileURL(file).href): { fail: () => never } {
  return runInThisContext(`${readFileSync(file, "utf8")}\n;built`, { filename: name });
}

function thrown(fail: () => never): Error {
  try {
    fail();
  } catch (error) {
    return error as Error;
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-traces-"));
  writeFileSync(
    join(root, "app.ts"),
    [
      "// A comment, so the compiled lines differ from these.",
      "export function fail(): never {",
      '  throw new TypeError("failed in the app");',
      "}",
      "",
    ].join("\n"),
  );
  // As `wisent build` makes it (a map beside the file, without the sources' text); a script
  // rather than a module, so that the test can run it as it is.
  await build({
    absWorkingDir: root,
    entryPoints: ["app.ts"],
    outdir: "dist",
    format: "iife",
    globalName: "built",
    bundle: true,
    sourcemap: true,
    sourcesContent: false,
    minifyWhitespace: true,
    logLevel: "silent",
  });
  writeFileSync(join(root, "dist/no-map.js"), 'var built={fail(){throw new Error("x")}};\n');
  restore = mapBuildStackTraces(join(root, "dist"));
});

afterAll(() => {
  restore();
  rmSync(root, { recursive: true, force: true });
});

describe("mapBuildStackTraces", () => {
  it("names the TypeScript file, line and column of a frame in the build", () => {
    const stack = thrown(load(join(root, "dist/app.js")).fail).stack;
    expect(stack).toMatch(/^TypeError: failed in the app\n {4}at fail \(/);
    expect(stack).toContain(`(${join(root, "app.ts")}:3:9)\n`);
    expect(stack).not.toContain("dist/app.js");
    // Frames outside the build (this test file) are as V8 prints them.
    expect(stack).toMatch(/build-stack-traces\.test\.ts:\d+:\d+/);
  });

  it("maps a build file named by its path too", () => {
    const file = join(root, "dist/app.js");
    expect(thrown(load(file, file).fail).stack).toContain(`(${join(root, "app.ts")}:3:9)\n`);
  });

  it("leaves frames of a build file without a map, and of files outside the build, alone", () => {
    expect(thrown(load(join(root, "dist/no-map.js")).fail).stack).toMatch(
      /at \S*fail \(file:\/\/\S+\/dist\/no-map\.js:1:\d+\)\n/,
    );
    writeFileSync(join(root, "outside.js"), 'var built={fail(){throw new Error("x")}};\n');
    expect(thrown(load(join(root, "outside.js")).fail).stack).toMatch(/\/outside\.js:1:\d+\)\n/);
  });
});
