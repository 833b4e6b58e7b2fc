/** Medians, min-max and pair-by-pair ratios of interleaved rounds, as Markdown. */
import { loadavg } from "node:os";
import { median } from "../../lib/measure.mjs";

export const spread = (values) => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

/** Ratio a/b computed round by round (same round = same machine state), then summarised. */
export function pairRatio(roundsA, roundsB) {
  const ratios = [];
  for (let i = 0; i < Math.min(roundsA.length, roundsB.length); i++) {
    ratios.push(roundsA[i].rps / roundsB[i].rps);
  }
  return spread(ratios);
}

export const fmtRps = (s) =>
  `${Math.round(s.median).toLocaleString("en-US")} (${Math.round(s.min).toLocaleString("en-US")}-${Math.round(s.max).toLocaleString("en-US")})`;
export const fmtRatio = (s) => `${s.median.toFixed(2)} (${s.min.toFixed(2)}-${s.max.toFixed(2)})`;
export const fmtMs = (v) => `${v.toFixed(2)} ms`;

/**
 * For a bench run on its own (`node bench/load/<bench>.mjs`): runs it and prints its table between
 * the time, Node's version and the load average before, and the load average after.
 */
export async function printStandalone(run) {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  console.log(`${new Date().toISOString()}, node ${process.version}, load average ${load()}\n`);
  console.log((await run()).table);
  console.log(`\nload average after: ${load()}`);
}
