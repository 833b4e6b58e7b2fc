/**
 * Wisent against the frameworks a user would pick instead: AdonisJS 7 and NestJS (Fastify
 * adapter), apps in bench/load/peers/<name>/ with their own package.json, installed and compiled
 * on demand (lib/peer-apps.mjs). The same resource over the same rows: JSON show, list (a page of
 * 20 with the total) and create with validation; the HTML index behind sessions, CSRF and flash
 * for the web apps. Pairs: the shop (web chain) against AdonisJS with the web starter kit's
 * middleware; the generated API app against AdonisJS with the API kit's and against NestJS.
 *
 *   node bench/load/run.mjs frameworks          (or node bench/load/frameworks.mjs)
 *
 * FRAMEWORKS_DB=sqlite,postgres (default both; PostgreSQL skipped when unreachable at
 * WISENT_BENCH_POSTGRES_URL), BENCH_ROUNDS/BENCH_SECONDS/BENCH_WARMUP as the throughput phase,
 * FRAMEWORKS_COLD_ROUNDS (3) spawn-to-first-200 rounds, FRAMEWORKS_MEMORY_REQUESTS (100,000):
 * every server is topped up to that many requests (JSON show) before its resident set is read;
 * FRAMEWORKS_VARIANTS and FRAMEWORKS_WORKLOADS (names, comma-separated) narrow a run.
 * Ratios are computed round by round (interleaved rounds: the same machine state). Each row also
 * gives the CPU a request cost the server, the database (PostgreSQL's processes) and the whole
 * machine; a goal not met says how far the machine's other work alone would let the ratio go.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiApp, SHOP } from "./lib/apps.mjs";
import { preparePeerApp } from "./lib/peer-apps.mjs";
import { createDatabases, databaseCpuSecondsSince, databaseCpuTicks } from "./lib/postgres.mjs";
import { fmtMs, fmtRatio, fmtRps, pairRatio, printStandalone, spread } from "./lib/report.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import {
  BEHIND_PROXY,
  cpuSeconds,
  machineBusySeconds,
  residentMiB,
  startServer,
} from "./lib/servers.mjs";
import { runWrk, writeScript } from "./lib/wrk.mjs";
import {
  only,
  postgresVariantEnv,
  SESSION_SECRET,
  startVariant,
  variantEnv,
  variantNamed,
} from "./throughput.mjs";

const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const JSON_HEADERS = { Accept: "application/json", ...BEHIND_PROXY };

/** The contenders; `against` names the Wisent app a peer is compared with. */
const ALL_VARIANTS = [
  { name: "wisent-web", label: "Wisent, examples/shop (web chain)" },
  {
    name: "adonisjs",
    label: "AdonisJS 7, web kit (session, shield, flash, Edge)",
    peer: "adonisjs",
    against: "wisent-web",
  },
  { name: "wisent-api", label: "Wisent, generated API app" },
  {
    name: "adonisjs-api",
    label: "AdonisJS 7, API kit",
    peer: "adonisjs",
    env: { PEER_KIT: "api" },
    against: "wisent-api",
  },
  {
    name: "nestjs",
    label: "NestJS 12, Fastify adapter, TypeORM, class-validator",
    peer: "nestjs",
    against: "wisent-api",
  },
];

/** The workloads; HTML only for the web pair. */
const ALL_WORKLOADS = [
  { name: "json-show", label: "JSON show" },
  { name: "json-list", label: "JSON list (20, with the total)" },
  { name: "json-create", label: "JSON create (validated)" },
  { name: "html-index", label: "HTML index (20), session + CSRF + flash", html: true },
];
const WEB = new Set(["wisent-web", "adonisjs"]);

// `FRAMEWORKS_VARIANTS=wisent-api,nestjs` and `FRAMEWORKS_WORKLOADS=json-show` narrow a run.
const VARIANTS = only(ALL_VARIANTS, process.env.FRAMEWORKS_VARIANTS);
const WORKLOADS = only(ALL_WORKLOADS, process.env.FRAMEWORKS_WORKLOADS);

function request(workload, ids, cookie) {
  switch (workload.name) {
    case "json-show":
      return { paths: ids.slice(0, 1000).map((id) => `/widgets/${id}`), headers: JSON_HEADERS };
    case "json-list":
      return { paths: ["/widgets"], headers: JSON_HEADERS };
    case "json-create":
      return {
        method: "POST",
        paths: ["/widgets"],
        headers: { ...JSON_HEADERS, "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Load widget", description: "Made under load." }),
      };
    default:
      return {
        paths: ["/widgets"],
        headers: { Accept: HTML_ACCEPT, Cookie: cookie, ...BEHIND_PROXY },
      };
  }
}
const EXPECT = { "json-show": 200, "json-list": 200, "json-create": 201, "html-index": 200 };

/** A returning browser's cookies (every Set-Cookie of a first HTML answer). */
async function browserCookie(url) {
  const res = await fetch(`${url}/widgets`, { headers: { Accept: HTML_ACCEPT, ...BEHIND_PROXY } });
  await res.text();
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** One database per variant, migrated by the Wisent app it is compared with, the same rows. */
async function databases(kind, dir, widgets) {
  const made =
    kind === "postgres"
      ? await createDatabases(
          "wisent_fw",
          VARIANTS.map((v) => v.name),
        )
      : undefined;
  const urls = made?.urls ?? {};
  if (!made) for (const v of VARIANTS) urls[v.name] = `sqlite:${join(dir, `${v.name}.sqlite`)}`;
  let ids;
  for (const v of VARIANTS) {
    const app = (v.against ?? v.name) === "wisent-web" ? SHOP : apiApp();
    ids = await seedWidgets(urls[v.name], { app, widgets });
  }
  return { urls, ids, drop: async () => made?.drop() };
}

/** Starts a variant against `url`; resolves the server (lib/servers.mjs). */
function start(variant, url, prepared) {
  if (!variant.peer) {
    const env = url.startsWith("sqlite:")
      ? variantEnv(url.slice("sqlite:".length))
      : postgresVariantEnv(url);
    return startVariant(variantNamed(variant.name), { env });
  }
  const { script, cwd } = prepared[variant.peer];
  return startServer(script, {
    cwd,
    env: {
      DATABASE_URL: url,
      NODE_ENV: "production",
      APP_KEY: SESSION_SECRET,
      LOG_LEVEL: "info",
      SESSION_DRIVER: "cookie",
      ...variant.env,
    },
  });
}

async function preflight(server, variant, workload, req) {
  const res = await fetch(server.url + req.paths[0], {
    method: req.method ?? "GET",
    headers: req.headers,
    body: req.body,
  });
  const text = await res.text();
  const kind = workload.html ? "html" : "json";
  if (res.status !== EXPECT[workload.name] || !res.headers.get("content-type")?.includes(kind)) {
    throw new Error(
      `${variant.name} ${workload.name}: expected ${EXPECT[workload.name]} ${kind}, got ${res.status} ${res.headers.get("content-type")}: ${text.slice(0, 300)}`,
    );
  }
}

async function onDatabase(kind, prepared, options) {
  const { rounds, seconds, warmup, connections, coldRounds, memoryRequests } = options;
  const dir = mkdtempSync(join(tmpdir(), "wisent-frameworks-"));
  const db = await databases(kind, dir, makeWidgets(10_000));
  const servers = new Map();
  try {
    // Cold start: spawn to the first answer, every variant in turn, `coldRounds` times.
    const cold = {};
    for (let round = 0; round < coldRounds; round++) {
      for (const v of VARIANTS) {
        let url = db.urls[v.name];
        if (kind === "sqlite") {
          const copy = join(dir, `cold-${v.name}.sqlite`);
          copyFileSync(url.slice("sqlite:".length), copy);
          url = `sqlite:${copy}`;
        }
        const started = performance.now();
        const server = await start(v, url, prepared);
        cold[v.name] ??= [];
        cold[v.name].push(performance.now() - started);
        await server.stop();
      }
    }
    for (const v of VARIANTS) servers.set(v.name, await start(v, db.urls[v.name], prepared));
    const ready = {};
    for (const v of VARIANTS) ready[v.name] = await residentMiB(servers.get(v.name).pid);

    const runs = [];
    for (const workload of WORKLOADS) {
      for (const v of VARIANTS) {
        if (workload.html && !WEB.has(v.name)) continue;
        const server = servers.get(v.name);
        const cookie = workload.html ? await browserCookie(server.url) : "";
        const req = request(workload, db.ids, cookie);
        await preflight(server, v, workload, req);
        const script = writeScript(dir, `${workload.name}-${v.name}`, req);
        runs.push({ workload, variant: v, script });
      }
    }
    const served = Object.fromEntries(VARIANTS.map((v) => [v.name, 0]));
    for (const run of runs) {
      const r = await runWrk(servers.get(run.variant.name).url, run.script, {
        seconds: warmup,
        connections,
      });
      served[run.variant.name] += r.requests;
    }
    const results = {};
    for (let round = 0; round < rounds; round++) {
      for (const run of runs) {
        const server = servers.get(run.variant.name);
        const cpuBefore = [cpuSeconds(server.pid), databaseCpuTicks(), machineBusySeconds()];
        const r = await runWrk(server.url, run.script, { seconds, connections });
        // CPU microseconds a request: the server's process, the database's (PostgreSQL's
        // processes; none on SQLite, which runs inside the server) and the whole machine's.
        const perRequest = (before, now) => ((now - before) * 1e6) / r.requests;
        r.serverUs = perRequest(cpuBefore[0], cpuSeconds(server.pid));
        r.databaseUs = (databaseCpuSecondsSince(cpuBefore[1]) * 1e6) / r.requests;
        r.machineUs = perRequest(cpuBefore[2], machineBusySeconds());
        if (r.errors > 0) {
          throw new Error(`${run.variant.name} ${run.workload.name}: ${r.errors} errors`);
        }
        served[run.variant.name] += r.requests;
        results[run.workload.name] ??= {};
        results[run.workload.name][run.variant.name] ??= [];
        results[run.workload.name][run.variant.name].push(r);
      }
      process.stderr.write(`  ${kind}: round ${round + 1}/${rounds} done\n`);
    }
    // Memory: every server topped up to `memoryRequests` (JSON show), then its resident set.
    const memory = {};
    for (const v of VARIANTS) {
      const show = runs.find((r) => r.variant === v && r.workload.name === "json-show");
      while (show && served[v.name] < memoryRequests) {
        const r = await runWrk(servers.get(v.name).url, show.script, { seconds: 5, connections });
        served[v.name] += r.requests;
      }
      memory[v.name] = await residentMiB(servers.get(v.name).pid);
    }
    return report(kind, results, cold, ready, memory, served);
  } finally {
    for (const server of servers.values()) await server.stop();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For a goal not met: how busy the whole machine was, and the most the ratio could be on this
 * machine if Wisent's server took no CPU at all, the database, the load generator and the
 * kernel's work staying as measured (a bound that holds when the machine is busy throughout).
 */
function machineBound(wisent, peer) {
  const median = (rounds, key) => spread(rounds.map((r) => r[key])).median;
  const busy = (rounds) => (median(rounds, "rps") * median(rounds, "machineUs")) / 1e6;
  const rest = median(wisent, "machineUs") - median(wisent, "serverUs");
  const bound = median(peer, "machineUs") / rest;
  return `; cores busy ${busy(wisent).toFixed(2)} and ${busy(peer).toFixed(2)} of ${availableParallelism()}; with a server taking no CPU, at most ${bound.toFixed(2)}`;
}

function report(kind, results, cold, ready, memory, served) {
  const lines = [
    `#### ${kind === "sqlite" ? "SQLite" : "PostgreSQL"}`,
    "",
    "| workload | variant | req/s median (min-max) | p99 median | Wisent / this, round by round | CPU us a request: server, database, machine |",
    "|---|---|---|---|---|---|",
  ];
  const goals = [];
  for (const workload of WORKLOADS) {
    for (const v of VARIANTS) {
      const rounds = results[workload.name]?.[v.name];
      if (!rounds) continue;
      const rps = spread(rounds.map((r) => r.rps));
      const p99 = spread(rounds.map((r) => r.p99_ms)).median;
      let ratio = "";
      const wisent = v.against && results[workload.name][v.against];
      if (wisent) {
        const r = pairRatio(wisent, rounds);
        ratio = fmtRatio(r);
        const least = workload.html ? 1 : 2;
        const met = r.median >= least;
        goals.push(
          `- ${met ? "met" : "NOT met"}: ${workload.name}, ${v.against} / ${v.name} >= ${least} (${fmtRatio(r)})${met ? "" : machineBound(wisent, rounds)}`,
        );
      }
      const [serverUs, databaseUs, machineUs] = ["serverUs", "databaseUs", "machineUs"].map(
        (key) => spread(rounds.map((r) => r[key])).median,
      );
      const cpu = `${serverUs.toFixed(0)}, ${kind === "sqlite" ? "-" : databaseUs.toFixed(0)}, ${machineUs.toFixed(0)}`;
      lines.push(
        `| ${workload.label} | ${v.label} | ${fmtRps(rps)} | ${fmtMs(p99)} | ${ratio} | ${cpu} |`,
      );
    }
  }
  lines.push(
    "",
    "| variant | cold start, spawn to first 200, median (min-max) | resident set when ready | after the requests served |",
    "|---|---|---|---|",
  );
  for (const v of VARIANTS) {
    const c = spread(cold[v.name]);
    lines.push(
      `| ${v.label} | ${Math.round(c.median)} ms (${Math.round(c.min)}-${Math.round(c.max)}) | ${ready[v.name].toFixed(1)} MiB | ${memory[v.name].toFixed(1)} MiB after ${served[v.name].toLocaleString("en-US")} |`,
    );
  }
  lines.push("", "Goals (issue 41: ahead on every workload, at least 2x on JSON):", "", ...goals);
  return lines.join("\n");
}

export async function frameworks({ rounds = 3, seconds = 3, warmup = 2, connections = 50 } = {}) {
  const prepared = {};
  const out = [];
  for (const name of new Set(VARIANTS.filter((v) => v.peer).map((v) => v.peer))) {
    prepared[name] = preparePeerApp(name);
    if (prepared[name].skip) return { table: `skipped: the ${name} peer ${prepared[name].skip}` };
  }
  const options = {
    rounds,
    seconds,
    warmup,
    connections,
    coldRounds: Number(process.env.FRAMEWORKS_COLD_ROUNDS ?? 3),
    memoryRequests: Number(process.env.FRAMEWORKS_MEMORY_REQUESTS ?? 100_000),
  };
  for (const kind of (process.env.FRAMEWORKS_DB ?? "sqlite,postgres").split(",")) {
    try {
      out.push(await onDatabase(kind, prepared, options));
    } catch (error) {
      if (kind !== "postgres" || !/ECONNREFUSED|connect/.test(String(error))) throw error;
      out.push(`#### PostgreSQL\n\nskipped: not reachable (${error.message})`);
    }
    out.push("");
  }
  return { table: out.join("\n") };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await printStandalone(() =>
    frameworks({
      rounds: Number(process.env.BENCH_ROUNDS ?? 3),
      seconds: Number(process.env.BENCH_SECONDS ?? 3),
      warmup: Number(process.env.BENCH_WARMUP ?? 2),
    }),
  );
}
