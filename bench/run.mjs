/**
 * `npm run bench`: builds nothing itself (run `npm run build` first, `npm ci` does it), then runs
 * every benchmark folder's run.mjs in turn, or only those named: `npm run bench -- routing http`.
 * Benchmarks are never part of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const suites = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, "run.mjs")))
  .map((d) => d.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name));
if (wanted.length > 0 && suites.length !== wanted.length) {
  console.error(`unknown benchmark: ${wanted.filter((w) => !suites.includes(w)).join(", ")}`);
  process.exit(2);
}
let failed = false;
for (const suite of suites) {
  console.log(`\n## ${suite}\n`);
  const result = spawnSync(process.execPath, [join(here, suite, "run.mjs")], { stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
