import { spawnSync } from "node:child_process";

/**
 * Runs ES module source (TypeScript imports allowed, through tsx) in a fresh Node process and
 * returns its stdout; throws with its stderr when it wrote any or failed. For tests of what a
 * process does at start or exit (module loading, exit hooks).
 */
export function runModule(source: string, timeoutMs = 30_000): string {
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", source],
    { encoding: "utf8", timeout: timeoutMs },
  );
  if (child.status !== 0 || child.stderr !== "") {
    throw new Error(`module exited ${child.status}: ${child.stderr}`);
  }
  return child.stdout;
}
