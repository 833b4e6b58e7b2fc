/**
 * What the request log line costs under load: the API app's middleware chain around a JSON show
 * (bench/load/apps/api/src/logger-server.mjs), with and without `paramLogger()`, for this build
 * and a baseline build, every server in turn within each round (wrk as in the throughput phase:
 * server on core 0, wrk on core 1). The log line's cost is the server CPU per request with the
 * logger minus without it: of the medians over rounds, and round by round (same build, same
 * round; on a shared machine single rounds stray far, so the difference of medians is steadier).
 *
 * Run: npm run build && flock /tmp/wisent-bench.lock node bench/load/logger.mjs
 * The baseline: a build laid out by bench/lib/baseline-build.mjs in bench/results/baseline, or
 * WISENT_BASELINE=<dir>. WISENT_CURRENT=<dir> replaces this build, WISENT_BUILDS=name=dir,...
 * adds more builds (such folders). BENCH_ROUNDS (7), BENCH_SECONDS (3).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDist, DEFAULT_BASELINE, hasBuild, layOutBuild } from "../lib/baseline-build.mjs";
import { ROOT } from "./lib/apps.mjs";
import { spread } from "./lib/report.mjs";
import { cpuSeconds, startServer } from "./lib/servers.mjs";
import { runWrk, writeScript } from "./lib/wrk.mjs";
import { seedFiles, variantEnv, variantNamed, workloads } from "./throughput.mjs";

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const server = fileURLToPath(new URL("./apps/api/src/logger-server.mjs", import.meta.url));
const baseline = process.env.WISENT_BASELINE ?? DEFAULT_BASELINE;

const dir = mkdtempSync(join(tmpdir(), "wisent-logger-"));
// This build is copied first: another build of the tree during the run must not change it
// (WISENT_CURRENT=<dir> takes another build in its place).
const current = process.env.WISENT_CURRENT ?? layOutBuild(join(ROOT, "bench/results/current"));
const builds = { current: buildDist(current) };
if (hasBuild(baseline)) builds.baseline = buildDist(baseline);
// More builds to compare, as name=dir pairs: WISENT_BUILDS=a=bench/results/a,b=...
for (const pair of (process.env.WISENT_BUILDS ?? "").split(",").filter(Boolean)) {
  const [name, dir] = pair.split("=");
  builds[name] = buildDist(dir);
}

const servers = new Map();
try {
  const { ids, base } = await seedFiles(dir);
  const show = workloads(ids, "").find((w) => w.name === "json-show");
  const script = writeScript(dir, show.name, show);
  for (const [build, dist] of Object.entries(builds)) {
    for (const logger of ["with", "without"]) {
      const name = `${build} ${logger}`;
      const file = join(dir, `${build}-${logger}.sqlite`);
      copyFileSync(base(variantNamed("floor")), file);
      const env = { ...variantEnv(file), WISENT_DIST: dist, LOGGER: logger === "with" ? "1" : "" };
      servers.set(name, await startServer(server, { env, probePath: show.paths[0] }));
    }
  }
  for (const s of servers.values()) await runWrk(s.url, script, { seconds: 2 });
  const cpu = Object.fromEntries([...servers.keys()].map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, s] of servers) {
      const before = cpuSeconds(s.pid);
      const r = await runWrk(s.url, script, { seconds });
      if (r.errors > 0) throw new Error(`${name}: ${r.errors} errors`);
      cpu[name].push(((cpuSeconds(s.pid) - before) / r.requests) * 1e6);
    }
    process.stderr.write(`  round ${round + 1}/${rounds} done\n`);
  }
  const us = (v) => `${v.toFixed(1)} us`;
  const range = (s) => `${us(s.median)} (${us(s.min)} to ${us(s.max)})`;
  console.log(
    `${rounds} interleaved rounds x ${seconds} s, server CPU per request, medians (min-max)\n`,
  );
  console.log(
    "| build | without logger | with logger | the log line: difference of the medians | round by round |",
  );
  console.log("|---|---|---|---|---|");
  const costOf = {};
  for (const build of Object.keys(builds)) {
    const without = spread(cpu[`${build} without`]);
    const withLog = spread(cpu[`${build} with`]);
    costOf[build] = withLog.median - without.median;
    const perRound = spread(cpu[`${build} with`].map((v, i) => v - cpu[`${build} without`][i]));
    console.log(
      `| ${build} | ${range(without)} | ${range(withLog)} | ${us(costOf[build])} | ${range(perRound)} |`,
    );
  }
  if (builds.baseline) {
    console.log(
      `\nthis build's log line / the baseline's (difference of the medians): ${(costOf.current / costOf.baseline).toFixed(2)}`,
    );
  }
} finally {
  for (const s of servers.values()) await s.stop();
  rmSync(dir, { recursive: true, force: true });
}
