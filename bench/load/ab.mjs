/**
 * Two builds of Wisent under load in one run: the CLI-generated API app served by each build,
 * beside the floor, with wrk as the throughput phase runs it (server pinned to core 0, wrk on
 * core 1, interleaved rounds). Reports server CPU per request, req/s and the per-round ratios
 * (B / A, and each against the floor), medians and min-max.
 *
 *   node bench/load/ab.mjs <dirA> <dirB>
 *
 * Each dir holds a build laid out by bench/lib/baseline-build.mjs (this build, or a commit's with
 * --rev); the app is copied to `<dir>/shop` and started there with that build's CLI
 * (`wisent start`), so both builds are fixed for the whole run whatever `npm run build` does
 * meanwhile. (bench/http/api-server-path.mjs takes the same dirs.)
 * A dir that also holds `app/` (examples/shop as of that commit: baseline-build.mjs --shop) serves
 * that web app instead, the whole web chain: its JSON show and HTML index by default, html-show too.
 * Environment:
 * BENCH_ROUNDS (7), BENCH_SECONDS (3), BENCH_WARMUP (2), BENCH_WORKLOADS (json-show,json-list;
 * json-show,html-index when the dirs hold the shop),
 * BENCH_NODE_OPTIONS_A / BENCH_NODE_OPTIONS_B (NODE_OPTIONS of one side's server: the same build
 * twice, one with a V8 flag, prices the flag), BENCH_ENV_A / BENCH_ENV_B (`NAME=value,...` more
 * environment for one side's server: the same build twice prices a setting), BENCH_DB
 * (`sqlite`, or `postgres`: each build serves its own new database on the server at
 * WISENT_BENCH_POSTGRES_URL, seeded with the same rows; the floor stays on SQLite).
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { buildCli } from "../lib/baseline-build.mjs";
import { API_APP, apiApp, SHOP } from "./lib/apps.mjs";
import { createDatabases } from "./lib/postgres.mjs";
import { fmtRatio, pairRatio, spread } from "./lib/report.mjs";
import { seedWidgets } from "./lib/seed.mjs";
import { cpuSeconds, startServer } from "./lib/servers.mjs";
import { runWrk, writeScript } from "./lib/wrk.mjs";
import {
  BEHIND_PROXY,
  seedFiles,
  startVariant,
  variantEnv,
  variantNamed,
  workloads,
} from "./throughput.mjs";

const dirs = process.argv.slice(2, 4).map((d) => resolve(d));
if (dirs.length !== 2) {
  console.error("usage: node bench/load/ab.mjs <dirA> <dirB>");
  process.exit(2);
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
const shopDirs = dirs.every((dir) => existsSync(join(dir, "app")));
const names = (
  process.env.BENCH_WORKLOADS ?? (shopDirs ? "json-show,html-index" : "json-show,json-list")
).split(",");

/**
 * A build from before the subpaths (`wisent/db`, `wisent/middleware`, ...) serves the app this CLI
 * generated once its imports name the root, which re-exports what generated apps used then.
 */
function importFromRootOn(dir, app) {
  const pkg = JSON.parse(readFileSync(join(dir, "node_modules/wisent/package.json"), "utf8"));
  if (pkg.exports["./db"]) return;
  for (const entry of readdirSync(app, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || path.includes("node_modules")) continue;
    const source = readFileSync(path, "utf8");
    const rooted = source.replace(
      /from "wisent\/(db|auth|middleware|jsx|storage)"/g,
      'from "wisent"',
    );
    if (rooted !== source) writeFileSync(path, rooted);
  }
}

/** `NAME=value,NAME=value` (BENCH_ENV_A / BENCH_ENV_B) as an environment object. */
function sideEnv(side) {
  const pairs = (process.env[`BENCH_ENV_${side}`] ?? "").split(",").filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf("=");
      return at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** BENCH_DB=postgres: a new database per build, seeded alike; their URLs (A, B) and a drop. */
async function postgresDatabases(widgets) {
  const made = await createDatabases("wisent_ab", ["a", "b"]);
  for (const [i, key] of ["a", "b"].entries()) {
    const web = existsSync(join(dirs[i], "app"));
    await seedWidgets(made.urls[key], { app: web ? SHOP : API_APP, widgets });
  }
  return { urls: [made.urls.a, made.urls.b], drop: made.drop };
}

apiApp();
const tmp = mkdtempSync(join(tmpdir(), "wisent-ab-"));
const servers = [];
let postgres;
try {
  const { ids, widgets, base } = await seedFiles(tmp);
  if ((process.env.BENCH_DB ?? "sqlite") === "postgres")
    postgres = await postgresDatabases(widgets);
  const floor = variantNamed("floor");
  const floorFile = join(tmp, "floor.sqlite");
  copyFileSync(base(floor), floorFile);
  const variants = [
    { name: "floor", server: await startVariant(floor, { env: variantEnv(floorFile) }) },
  ];
  for (const [i, dir] of dirs.entries()) {
    // A build dir with its own `app/` (examples/shop as of that build's commit) serves that web
    // app, for the HTML workloads; otherwise the generated API app.
    const own = join(dir, "app");
    const web = existsSync(own);
    const app = join(dir, "shop");
    rmSync(app, { recursive: true, force: true });
    cpSync(web ? own : API_APP, app, { recursive: true, filter: (src) => !src.includes("/db/") });
    if (!web) importFromRootOn(dir, app);
    const file = join(tmp, `build-${i}.sqlite`);
    copyFileSync(base({ app: web ? SHOP : API_APP }), file);
    const cli = buildCli(dir);
    // BENCH_NODE_OPTIONS_A/_B: runtime flags for one side (to price a V8 flag on one build).
    const nodeOptions = process.env[`BENCH_NODE_OPTIONS_${"AB"[i]}`];
    const env = {
      ...variantEnv(file),
      ...(postgres ? { DATABASE_URL: postgres.urls[i] } : {}),
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...sideEnv("AB"[i]),
    };
    const server = await startServer(cli, { env, args: ["start"], cwd: app });
    variants.push({ name: `${"AB"[i]}: ${basename(dir)}`, server });
  }
  servers.push(...variants.map((v) => v.server));
  // The HTML workloads send a returning browser's session cookie (the last build's app's).
  let cookie = "";
  if (names.some((name) => name.startsWith("html"))) {
    const first = await fetch(`${variants.at(-1).server.url}/widgets`, {
      headers: { Accept: "text/html", ...BEHIND_PROXY },
    });
    await first.text();
    cookie = (first.headers.getSetCookie()[0] ?? "").split(";")[0];
  }
  const loads = workloads(ids, cookie).filter((w) => names.includes(w.name));
  console.log(
    `${new Date().toISOString()}, node ${process.version}, ${postgres ? "PostgreSQL" : "SQLite"}, ${rounds} rounds x ${seconds} s, load average ${(
      await import("node:os")
    )
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  console.log(
    "| workload | variant | req/s median | server CPU per request (min-max) | vs floor (CPU) | B / A (CPU) |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const workload of loads) {
    const script = writeScript(tmp, workload.name, workload);
    for (const v of variants) await runWrk(v.server.url, script, { seconds: warmup });
    const results = new Map(variants.map((v) => [v.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const v of variants) {
        const before = cpuSeconds(v.server.pid);
        const r = await runWrk(v.server.url, script, { seconds });
        if (r.errors > 0) throw new Error(`${v.name} ${workload.name}: ${r.errors} errors`);
        r.cpuUs = ((cpuSeconds(v.server.pid) - before) / r.requests) * 1e6;
        results.get(v.name).push(r);
      }
      process.stderr.write(`  ${workload.name} round ${round + 1}/${rounds}\n`);
    }
    // CPU ratios round by round: time per request, so lower is better (other / this).
    const cpuRatio = (a, b) =>
      spread(results.get(a).map((r, i) => results.get(b)[i].cpuUs / r.cpuUs));
    for (const v of variants) {
      const rs = results.get(v.name);
      const cpu = spread(rs.map((r) => r.cpuUs));
      const rps = spread(rs.map((r) => r.rps)).median;
      const vsFloor = v.name === "floor" ? "" : fmtRatio(cpuRatio(v.name, "floor"));
      const ab = v.name === variants[2].name ? fmtRatio(cpuRatio(v.name, variants[1].name)) : "";
      console.log(
        `| ${workload.label} | ${v.name} | ${Math.round(rps)} | ${cpu.median.toFixed(1)} us (${cpu.min.toFixed(1)}-${cpu.max.toFixed(1)}) | ${vsFloor} | ${ab} |`,
      );
    }
    const rpsAB = pairRatio(results.get(variants[2].name), results.get(variants[1].name));
    console.log(`| ${workload.label} | B / A req/s | ${fmtRatio(rpsAB)} | | | |`);
  }
} finally {
  for (const server of servers) await server.stop();
  await postgres?.drop();
  rmSync(tmp, { recursive: true, force: true });
}
