/**
 * The full web chain against bare Hono with the same handler, same process, interleaved rounds:
 * a JSON show (no cookie, as an API client) and an HTML page in a layout with flash and CSRF meta
 * tags (with a session cookie, as a returning browser). Goal: the chain costs at most 35% of
 * throughput on the JSON route. Run: npm run build && node bench/http/run.mjs
 */
import { interleave, ns } from "../lib/measure.mjs";
import { bareHono, fullChain, loop, requests } from "./apps.mjs";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

const chain = fullChain();
const bare = bareHono();
const { json: jsonRequest, html: htmlRequest } = await requests(chain);

const results = await interleave(
  {
    "json bare": (n) => loop(bare, jsonRequest, n),
    "json chain": (n) => loop(chain, jsonRequest, n),
    "html bare": (n) => loop(bare, htmlRequest, n),
    "html chain": (n) => loop(chain, htmlRequest, n),
  },
  // The CPU clock is half of this bench: no forced collections, whose sweeping would count.
  { rounds: ROUNDS, iterations: ITERATIONS, collect: false },
);

/** A variant's median time per request by `clock`: "wall" or "cpu". */
const timeOf = (name, clock) => (clock === "wall" ? results[name].median : results[name].cpu);
const cost = (clock, bareName, chainName) => 1 - timeOf(bareName, clock) / timeOf(chainName, clock);
const row = (label, bareName, chainName, clock) => {
  const b = timeOf(bareName, clock);
  const w = timeOf(chainName, clock);
  const ratio = b / w;
  return `| ${label} | ${clock === "wall" ? "wall" : "CPU"} | ${ns(b)} | ${ns(w)} | ${(ratio * 100).toFixed(0)}% | ${((1 - ratio) * 100).toFixed(0)}% |`;
};

console.log(
  `node ${process.version}, ${ROUNDS} interleaved rounds x ${ITERATIONS} requests, medians per request\n`,
);
console.log("| route | clock | bare Hono | full web chain | chain throughput vs bare | cost |");
console.log("|---|---|---|---|---|---|");
for (const clock of ["wall", "cpu"]) {
  console.log(row("JSON show (no cookie)", "json bare", "json chain", clock));
  console.log(row("HTML page in layout (session cookie)", "html bare", "html chain", clock));
}
const jsonCost = cost("wall", "json bare", "json chain");
console.log(`\nJSON goal (cost <= 35%, wall clock): ${jsonCost <= 0.35 ? "met" : "NOT met"}`);
