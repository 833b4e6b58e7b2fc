/**
 * The wisent package's own folder, wherever the code asking runs: its sources, tsc's output or
 * the bundle (whose chunks sit at another depth), found by walking up to its package.json.
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/**
 * The folder holding wisent's package.json.
 * @example join(packageRoot(), "bin/wisent.js")
 */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "wisent") {
      root = dir;
      return dir;
    }
    // Internal: the package always has its package.json; only a broken install reaches this.
    if (dirname(dir) === dir) throw new Error("cannot find the wisent package's package.json");
  }
}
