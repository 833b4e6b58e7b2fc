/**
 * Where the full web chain's time goes: `node bench/http/profile.mjs [json|html] [seconds]`
 * (after `npm run build`). Runs one route of bench/http's chain in a loop under the in-process
 * V8 profiler and prints self time by function and the inclusive time of Wisent's functions.
 */
import { Session } from "node:inspector/promises";
import { fullChain, loop, requests } from "./apps.mjs";

const [route = "json", secondsArg = "4"] = process.argv.slice(2);
const chain = fullChain();
const made = await requests(chain);
const makeRequest = made[route];
if (!makeRequest) throw new Error(`unknown route ${route}: json or html`);
await loop(chain, makeRequest, 5000);

const inspector = new Session();
inspector.connect();
await inspector.post("Profiler.enable");
await inspector.post("Profiler.setSamplingInterval", { interval: 50 });
await inspector.post("Profiler.start");
const until = performance.now() + Number(secondsArg) * 1000;
let answered = 0;
while (performance.now() < until) {
  await loop(chain, makeRequest, 500);
  answered += 500;
}
const { profile } = await inspector.post("Profiler.stop");
inspector.disconnect();

const { samples, timeDeltas, nodes } = profile;
const byId = new Map(nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of nodes) for (const child of n.children ?? []) parent.set(child, n.id);
const self = new Map();
for (let i = 0; i < samples.length; i++)
  self.set(samples[i], (self.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const short = (url) =>
  !url
    ? "(native)"
    : url.includes("/packages/wisent/dist/")
      ? `wisent/${url.split("/packages/wisent/dist/")[1]}`
      : url.includes("node_modules/")
        ? url.slice(url.lastIndexOf("node_modules/") + 13)
        : url.replace(/^.*\//, "");
const keyOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || "(anonymous)"} ${short(url)}${url ? `:${lineNumber + 1}` : ""}`;
};
const selfByFn = new Map();
const inclusiveByFn = new Map();
for (const [id, t] of self) {
  const key = keyOf(byId.get(id));
  selfByFn.set(key, (selfByFn.get(key) ?? 0) + t);
  // Inclusive: every distinct function on the stack gets the sample once.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const k = keyOf(byId.get(at));
    if (seen.has(k)) continue;
    seen.add(k);
    inclusiveByFn.set(k, (inclusiveByFn.get(k) ?? 0) + t);
  }
}
const us = (t) => `${(t / answered).toFixed(2)} us`;
const pct = (t) => `${((t / total) * 100).toFixed(1)}%`;
console.log(`${route}: ${answered} requests, ${us(total)} sampled per request\n`);
console.log("| self | per request | function |\n|---|---|---|");
for (const [f, t] of [...selfByFn].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`| ${pct(t)} | ${us(t)} | ${f} |`);
console.log("\n| inclusive | per request | Wisent function |\n|---|---|---|");
for (const [f, t] of [...inclusiveByFn]
  .filter(([f]) => f.includes(" wisent/"))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 40))
  console.log(`| ${pct(t)} | ${us(t)} | ${f} |`);
