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
  { rounds: ROUNDS, iterations: ITERATIONS },
);

const row = (label, bareName, chainName) => {
  const b = results[bareName].median;
  const w = results[chainName].median;
  const ratio = b / w;
  return `| ${label} | ${ns(b)} | ${ns(w)} | ${(ratio * 100).toFixed(0)}% | ${((1 - ratio) * 100).toFixed(0)}% |`;
};

console.log(
  `node ${process.version}, ${ROUNDS} interleaved rounds x ${ITERATIONS} requests, medians per request\n`,
);
console.log("| route | bare Hono | full web chain | chain throughput vs bare | cost |");
console.log("|---|---|---|---|---|");
console.log(row("JSON show (no cookie)", "json bare", "json chain"));
console.log(row("HTML page in layout (session cookie)", "html bare", "html chain"));
const jsonCost = 1 - results["json bare"].median / results["json chain"].median;
console.log(`\nJSON goal (cost <= 35%): ${jsonCost <= 0.35 ? "met" : "NOT met"}`);
