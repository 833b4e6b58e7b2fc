import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE = join(ROOT, "packages/wisent");
const SRC = join(PACKAGE, "src");
const MAP = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
const CONTRIBUTING = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8");
const { LAYERS } = createRequire(import.meta.url)("./layers.cjs") as {
  LAYERS: [name: string, folders: string[]][];
};

/** The "Layers" table's rows: each layer's name and the folders under src/ it names. */
function drawnLayers(): [string, string[]][] {
  const section = MAP.split("\n## Layers")[1]!.split("\n## ")[0]!;
  return [...section.matchAll(/^\| ([a-z-]+) \| ([^|]+) \|/gm)]
    .filter((row) => row[1] !== "layer")
    .map((row) => [
      row[1]!,
      [...row[2]!.matchAll(/`src\/([a-z-]+)\/`/g)].map((folder) => folder[1]!),
    ]);
}

/** Folders of src/ a map entry is owed: all but tests' own (test-support/, fixtures/, below). */
function srcFolders(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "test-support" && e.name !== "fixtures")
    .flatMap((e) => [join(dir, e.name), ...srcFolders(join(dir, e.name))])
    .map((abs) => (abs.startsWith(SRC) ? `src/${relative(SRC, abs)}/` : abs));
}

/** Every path written in backticks: `src/...` (under packages/wisent) or from the repository root. */
function writtenPaths(text = MAP): string[] {
  const roots = "(src|packages|examples|e2e|bench|scripts|docs)/";
  const paths = [...text.matchAll(new RegExp(`\`(${roots}[^\`\\s*]*)\``, "g"))].map((m) => m[1]!);
  return [...new Set(paths)];
}

const onDisk = (path: string) =>
  existsSync(path.startsWith("src/") ? join(PACKAGE, path) : join(ROOT, path));

describe("ARCHITECTURE.md", () => {
  it("has an entry for every folder of packages/wisent/src", () => {
    const written = new Set(writtenPaths());
    const unmapped = srcFolders().filter((folder) => !written.has(folder));
    expect(unmapped).toEqual([]);
  });

  it("draws the layers of scripts/architecture/layers.cjs, in their order, with their folders", () => {
    expect(drawnLayers()).toEqual(LAYERS);
  });

  it("names only paths that exist", () => {
    expect(writtenPaths().filter((path) => !onDisk(path))).toEqual([]);
  });

  it("and CONTRIBUTING.md, which points at files to copy, names only paths that exist", () => {
    expect(writtenPaths(CONTRIBUTING).filter((path) => !onDisk(path))).toEqual([]);
  });

  it("finds the paths it checks (the check itself works)", () => {
    expect(srcFolders()).toContain("src/middleware/csrf/");
    expect(srcFolders()).not.toContain("src/cli/generate/fixtures/");
    expect(writtenPaths()).toContain("src/server/listen.ts");
    expect(onDisk("src/no-such-folder/")).toBe(false);
  });
});
