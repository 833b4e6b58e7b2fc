/**
 * Shared helpers for in-process benchmarks: interleaved rounds, medians, ratios.
 * Every variant runs once per round, in turn, so drift in the machine hits all of them alike.
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A full collection before each timed run, so that one variant's garbage is not collected (and
// paid for) while the next one is timed: stock Kysely's per-query objects otherwise land on
// whichever variant follows it.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc");

/** Median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `variants` ({ name: async (iterations) => void }) for `rounds` interleaved rounds of
 * `iterations` each, after one warm-up round; returns { name: { median, min, max, cpu } } in
 * ns/op: wall-clock median, min and max, and the median of this process's CPU time (user +
 * system), the steadier clock on a machine shared with other work (time spent descheduled
 * does not count). `collect: false` leaves out the full collection before each run: its
 * concurrent sweeping then runs on V8's helper threads during the run and counts as CPU time.
 */
export async function interleave(
  variants,
  { rounds = 7, iterations = 20_000, collect = true } = {},
) {
  const names = Object.keys(variants);
  for (const name of names) await variants[name](iterations);
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      if (collect) collectGarbage();
      const startCpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await variants[name](iterations);
      wall[name].push(Number(process.hrtime.bigint() - start) / iterations);
      const used = process.cpuUsage(startCpu);
      cpu[name].push(((used.user + used.system) * 1000) / iterations);
    }
  }
  return Object.fromEntries(
    names.map((n) => [
      n,
      {
        median: median(wall[n]),
        min: Math.min(...wall[n]),
        max: Math.max(...wall[n]),
        cpu: median(cpu[n]),
      },
    ]),
  );
}

/** Formats ns/op to one decimal place in microseconds when large. */
export function ns(value) {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} us` : `${value.toFixed(0)} ns`;
}
