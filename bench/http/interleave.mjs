/**
 * Interleaved rounds (as bench/lib/measure.mjs) timing each round twice: wall clock, and this
 * process's CPU time (user + system). On a machine shared with other work the CPU time is the
 * steadier of the two: time spent descheduled does not count.
 */
import { median } from "../lib/measure.mjs";

/** Runs `variants` ({ name: async (iterations) => void }); returns { name: { wall, cpu } } medians in ns/op. */
export async function interleaveClocks(variants, { rounds = 9, iterations = 2000 } = {}) {
  const names = Object.keys(variants);
  for (const name of names) await variants[name](iterations);
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const startCpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await variants[name](iterations);
      wall[name].push(Number(process.hrtime.bigint() - start) / iterations);
      const used = process.cpuUsage(startCpu);
      cpu[name].push(((used.user + used.system) * 1000) / iterations);
    }
  }
  return Object.fromEntries(names.map((n) => [n, { wall: median(wall[n]), cpu: median(cpu[n]) }]));
}
