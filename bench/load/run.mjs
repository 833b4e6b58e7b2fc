/**
 * Load benchmarks over loopback (run `npm run build` first; needs wrk: `apt-get install wrk`):
 *   node bench/load/run.mjs [throughput] [cold-start] [cold-start-phases] [memory] [scale-out]
 *     [frameworks]
 * Environment: BENCH_ROUNDS (3), BENCH_SECONDS (3), BENCH_WARMUP (2), BENCH_CONNECTIONS (50);
 * BENCH_VARIANTS / BENCH_WORKLOADS (comma lists) narrow the throughput phase.
 * The Wisent variants are examples/shop and an API app the CLI generates at the start of the run
 * into apps/generated/ (lib/apps.mjs), both run with `wisent start`.
 * Prints Markdown for bench/load/RESULTS*.md (bench/README.md says how to run each phase).
 * Never part of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { coldStart } from "./cold-start.mjs";
import { coldStartPhases } from "./cold-start-phases.mjs";
import { frameworks } from "./frameworks.mjs";
import { pinned } from "./lib/cpus.mjs";
import { memory } from "./memory.mjs";
import { scaleOut } from "./scale-out.mjs";
import { throughput } from "./throughput.mjs";

const PHASES = {
  throughput,
  "cold-start": coldStart,
  "cold-start-phases": coldStartPhases,
  memory,
  "scale-out": scaleOut,
  frameworks,
};
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !(w in PHASES));
if (unknown.length > 0) {
  console.error(`unknown phase: ${unknown.join(", ")} (phases: ${Object.keys(PHASES).join(", ")})`);
  process.exit(2);
}
if (spawnSync("wrk", ["--version"]).error) {
  console.error("bench/load needs wrk on the PATH (Debian: apt-get install wrk)");
  process.exit(2);
}
const options = {
  rounds: Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3)),
  seconds: Number(process.env.BENCH_SECONDS ?? 3),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `${new Date().toISOString()}, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model}`,
);
console.log(
  `wrk -t1 -c${options.connections}, ${options.rounds} interleaved rounds x ${options.seconds} s (warm-up ${options.warmup} s), ` +
    (pinned
      ? "server on core 0, wrk on core 1 (taskset)"
      : "NOT pinned (taskset or a second core missing)"),
);
console.log(`load average at start: ${load()}\n`);
for (const name of wanted.length > 0 ? wanted : Object.keys(PHASES)) {
  console.log(`### ${name}\n`);
  const out = await PHASES[name](options);
  console.log(out.table);
  if (out.goals) console.log(`\n${out.goals}`);
  console.log(`\nload average after ${name}: ${load()}\n`);
}
