import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Runs the app's own Biome (`node_modules/.bin/biome check --write`) over the files just written,
 * so generated code always matches the app's formatting and import order, whatever the names'
 * lengths. Returns false when the app has no Biome installed yet (the templates are written in
 * Biome's style, so the output is already close).
 */
export function formatWithAppBiome(
  appDir: string,
  files: readonly string[],
  biome?: string,
): boolean {
  const binary = biome ?? join(appDir, "node_modules/.bin/biome");
  if (!existsSync(binary) || files.length === 0) return false;
  spawnSync(binary, ["check", "--write", "--no-errors-on-unmatched", ...files], {
    cwd: appDir,
    stdio: "ignore",
  });
  return true;
}
