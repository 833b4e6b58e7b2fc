import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** packages/wisent/src/, with its trailing slash. */
export const SRC = fileURLToPath(new URL("../../", import.meta.url));

/** The framework's own source files (no tests, test support or fixtures), relative to src/. */
export function ownSources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === "test-support" || entry.name === "fixtures" ? [] : ownSources(path);
    }
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [relative(SRC, path)]
      : [];
  });
}
