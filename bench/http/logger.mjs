/**
 * What the request log line costs per request, in-process: the API app's chain (security
 * headers, force-SSL) around a JSON show, with and without `paramLogger()` and its default
 * logger (JSON lines batched to stdout, here /dev/null as in bench/load), served the way
 * `app.listen()` serves: @hono/node-server's `getRequestListener` with a stand-in
 * IncomingMessage/ServerResponse pair (as bench/http/api-server-path.mjs), so no socket work and
 * no undici Request. A turn of the event loop every 32 requests, as a busy server has, lets the
 * batched lines be written as they are under load.
 *
 * For this build and, when given, baseline builds, all in one process, it prints per request:
 * bytes allocated (heap growth over runs no collection happened in) and CPU time (the variants
 * take turns in blocks of requests within each round; the log line's cost is "with" minus
 * "without" of the same build in the same round; medians and min-max over rounds).
 *
 * Run: npm run build && node bench/http/logger.mjs
 * A/B against an older build: lay it out with bench/lib/baseline-build.mjs (before changing
 * anything, or from a commit with --rev); WISENT_BASELINE=<dir> names another such folder than
 * bench/results/baseline, WISENT_BUILDS=name=dir,... adds more.
 * BENCH_ROUNDS (15), BENCH_ITERATIONS (4096 a round), BENCH_BLOCK (256).
 * The bench runs itself as a child process whose stdout is /dev/null; the tables come on stderr.
 */
import { spawnSync } from "node:child_process";
import { PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { DEFAULT_BASELINE, hasBuild, importBuild } from "../lib/baseline-build.mjs";
import { median, ns } from "../lib/measure.mjs";
import { serve } from "../lib/node-stand-ins.mjs";
import { widget } from "../lib/widget-fixture.mjs";

if (process.env.WISENT_LOGGER_BENCH_CHILD !== "1") {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, WISENT_LOGGER_BENCH_CHILD: "1", NODE_ENV: "development", GO_ENV: "" },
  });
  process.exit(child.status ?? 1);
}
if (process.stdout.isTTY) throw new Error("stdout must not be a terminal");

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 4096);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 256);

// Each build other than this one is a folder laid out by bench/lib/baseline-build.mjs.
const builds = { current: await import("wisent") };
const baseline = process.env.WISENT_BASELINE ?? DEFAULT_BASELINE;
if (hasBuild(baseline)) builds.baseline = await importBuild(baseline);
for (const pair of (process.env.WISENT_BUILDS ?? "").split(",").filter(Boolean)) {
  const [name, dir] = pair.split("=");
  builds[name] = await importBuild(dir);
}

const ids = Array.from(
  { length: 64 },
  (_, i) => `0190f5a2-7b1c-7cde-8f00-${String(i).padStart(12, "0")}`,
);

function listenerOf(w, withLogger) {
  class WidgetsResource extends w.Resource {
    show(c) {
      return c.respond(200, { json: { ...widget, id: c.req.param("widget_id") } });
    }
  }
  const app = new w.App({ name: "shop", api: true, env: "development" });
  app.use(w.securityHeaders());
  app.use(w.forceSSL());
  if (withLogger) app.use(w.paramLogger());
  app.resource("/widgets", new WidgetsResource());
  return getRequestListener(app.fetch);
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function run(listener, n) {
  for (let i = 0; i < n; i++) {
    const res = await serve(listener, `/widgets/${ids[i & 63]}`);
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}: ${res.body}`);
    if ((i & 31) === 31) await turn();
  }
}

const variants = {};
for (const [build, w] of Object.entries(builds)) {
  for (const logger of ["without", "with"]) {
    variants[`${build} ${logger}`] = listenerOf(w, logger === "with");
  }
}
for (const listener of Object.values(variants)) {
  const res = await serve(listener, `/widgets/${ids[1]}`);
  if (res.status !== 200 || !String(res.body).includes(ids[1])) {
    throw new Error(`answered ${res.status}: ${res.body}`);
  }
}

// Bytes allocated per request: heap growth over runs of 32 requests no collection happened in.
let collections = 0;
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ["gc"] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
async function bytesPerRequest(listener) {
  const kept = [];
  for (let r = 0; r < 80 && kept.length < 21; r++) {
    await settle();
    const seen = collections;
    const before = process.memoryUsage().heapUsed;
    await run(listener, 32);
    const after = process.memoryUsage().heapUsed;
    await settle();
    await settle();
    if (collections === seen && after > before) kept.push((after - before) / 32);
  }
  return kept.length > 0 ? median(kept) : Number.NaN;
}

for (const listener of Object.values(variants)) await run(listener, ITERATIONS);
const bytes = {};
for (const [name, listener] of Object.entries(variants))
  bytes[name] = await bytesPerRequest(listener);

// CPU per request, the variants taking turns in blocks within each round. No forced
// collections (their concurrent sweeping would count as CPU time): each pays for its garbage.
const perRound = [];
for (let round = 0; round < ROUNDS; round++) {
  const cpu = Object.fromEntries(Object.keys(variants).map((name) => [name, 0]));
  for (let done = 0; done < ITERATIONS; done += BLOCK) {
    for (const [name, listener] of Object.entries(variants)) {
      const start = process.cpuUsage();
      await run(listener, BLOCK);
      const used = process.cpuUsage(start);
      cpu[name] += ((used.user + used.system) * 1000) / ITERATIONS;
    }
  }
  perRound.push(cpu);
}

const spread = (values) =>
  `${ns(median(values))} (${ns(Math.min(...values))} to ${ns(Math.max(...values))})`;
console.error(
  `node ${process.version}, ${ROUNDS} rounds x ${ITERATIONS} requests a variant (blocks of ${BLOCK}), per request\n`,
);
console.error(
  "| build | bytes without logger | with | CPU without logger | with | the log line: bytes | the log line: CPU (with - without, per round) |",
);
console.error("|---|---|---|---|---|---|---|");
for (const build of Object.keys(builds)) {
  const without = perRound.map((r) => r[`${build} without`]);
  const withLog = perRound.map((r) => r[`${build} with`]);
  const bWithout = bytes[`${build} without`];
  const bWith = bytes[`${build} with`];
  console.error(
    `| ${build} | ${Math.round(bWithout)} B | ${Math.round(bWith)} B | ${ns(median(without))} | ${ns(median(withLog))} | ${Math.round(bWith - bWithout)} B | ${spread(withLog.map((v, i) => v - without[i]))} |`,
  );
}
if (builds.baseline) {
  const cost = (build, r) => r[`${build} with`] - r[`${build} without`];
  const ratios = perRound.map((r) => cost("current", r) / cost("baseline", r));
  console.error(
    `\nthis build's log line / the baseline's, CPU, round by round: ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`,
  );
}
process.exit(0);
