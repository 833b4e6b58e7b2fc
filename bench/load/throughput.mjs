/**
 * Throughput of every variant on every workload over loopback: wrk on one core, the server on the
 * other, each variant run in turn within each round (interleaved), medians and min-max, ratios
 * computed round by round. See bench/README.md "Load: throughput"; its figures are in
 * bench/load/RESULTS.md.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { API_APP, apiApp, CLI, SHOP } from "./lib/apps.mjs";
import { fmtMs, fmtRatio, fmtRps, pairRatio, spread } from "./lib/report.mjs";
import { sameJson } from "./lib/same-json.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import { BEHIND_PROXY, cpuSeconds, startServer } from "./lib/servers.mjs";

export { BEHIND_PROXY };

import { runWrk, writeScript } from "./lib/wrk.mjs";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
export const SESSION_SECRET = "load-bench-session-secret-".padEnd(64, "x");

/**
 * The variants; `html: false` for the API app (it has no views), `pagesOnly` for a peer that only
 * renders the HTML pages. The Wisent apps (`app`: the folder) are made by the CLI and run with
 * `wisent start` there (see lib/apps.mjs).
 */
const ALL_VARIANTS = [
  { name: "floor", label: "raw node:http (floor)", script: here("./peers/floor.mjs") },
  { name: "wisent-api", label: "Wisent API app", app: API_APP, wisent: true, html: false },
  { name: "wisent-web", label: "Wisent web app", app: SHOP, wisent: true },
  { name: "hono", label: "bare Hono", script: here("./peers/hono.mjs") },
  { name: "fastify", label: "Fastify 5", script: here("./peers/fastify.mjs") },
  { name: "express", label: "Express 5", script: here("./peers/express.mjs") },
  // The API app's work on other frameworks (peers/api-work.mjs): JSON only.
  {
    name: "fastify-api",
    label: "Fastify 5, equal work",
    script: here("./peers/api-fastify.mjs"),
    html: false,
  },
  {
    name: "hono-api",
    label: "Hono, equal work",
    script: here("./peers/api-hono.mjs"),
    html: false,
  },
  // Pages only: Express 5 rendering the same markup with EJS, the fair Express reference for HTML.
  {
    name: "express-ejs",
    label: "Express 5 + EJS",
    script: here("./peers/express-ejs.mjs"),
    pagesOnly: true,
  },
];

/**
 * `BENCH_VARIANTS=floor,hono,wisent-api` (and `BENCH_WORKLOADS=json-show`) narrow a run while
 * tuning: the items `env` names, else every item not marked `optional`.
 */
export const only = (list, env) => {
  const names = (env ?? "").split(",").filter(Boolean);
  return names.length === 0
    ? list.filter((item) => !item.optional)
    : list.filter((item) => names.includes(item.name));
};
export const VARIANTS = only(ALL_VARIANTS, process.env.BENCH_VARIANTS);
/** A variant by name, whatever BENCH_VARIANTS says (for the other phases). */
export const variantNamed = (name) => ALL_VARIANTS.find((v) => v.name === name);
/** The Wisent apps (API, web). */
export const WISENT_VARIANTS = ALL_VARIANTS.filter((v) => v.wisent);

const JSON_HEADERS = { Accept: "application/json", ...BEHIND_PROXY };
const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The five workloads; `cookie` is a returning browser's session cookie (HTML only). */
export function workloads(ids, cookie) {
  const showPaths = ids.slice(0, 1000).map((id) => `/widgets/${id}`);
  const html = { Accept: HTML_ACCEPT, Cookie: cookie, ...BEHIND_PROXY };
  return [
    {
      name: "json-show",
      label: "JSON show",
      paths: showPaths,
      headers: JSON_HEADERS,
      expect: [200, "json"],
    },
    {
      name: "json-list",
      label: "JSON list (20)",
      paths: ["/widgets"],
      headers: JSON_HEADERS,
      expect: [200, "json"],
    },
    {
      name: "json-create",
      label: "JSON create",
      method: "POST",
      paths: ["/widgets"],
      headers: { ...JSON_HEADERS, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Load widget", description: "Made under load." }),
      expect: [201, "json"],
    },
    {
      name: "html-index",
      label: "HTML index (20)",
      paths: ["/widgets"],
      headers: html,
      html: true,
      expect: [200, "html"],
    },
    {
      name: "html-show",
      label: "HTML show",
      paths: showPaths,
      headers: html,
      html: true,
      expect: [200, "html"],
    },
    // A first visit: no cookie, so the web app makes a session and its CSRF secret and seals
    // them into a Set-Cookie (the peers have no sessions). Run only when named in
    // BENCH_WORKLOADS (it prices the session's sealing, bench/load/ab.mjs).
    {
      name: "html-first-visit",
      label: "HTML show, first visit (session sealed)",
      paths: showPaths,
      headers: { Accept: HTML_ACCEPT, ...BEHIND_PROXY },
      html: true,
      optional: true,
      expect: [200, "html"],
    },
  ];
}

/**
 * Starts a variant's server (see lib/servers.mjs startServer for `options`): a peer's script, or
 * `wisent start` in a Wisent app's folder (extra `args` such as `--workers 2` follow `start`).
 */
export function startVariant(variant, { args = [], ...options }) {
  if (variant.name === "wisent-api") apiApp();
  return variant.app
    ? startServer(CLI, { ...options, args: ["start", ...args], cwd: variant.app })
    : startServer(variant.script, { ...options, args });
}

/**
 * Seeds one SQLite file per app (each migrated by its own app) with the same widgets, so every
 * variant's copy holds the same rows; returns { ids, fileFor(variant) }.
 */
export async function seedFiles(dir, rows = 10_000) {
  const widgets = makeWidgets(rows);
  const bases = {};
  let ids;
  for (const [key, app] of [
    ["web", SHOP],
    ["api", apiApp()],
  ]) {
    const file = join(dir, `base-${key}.sqlite`);
    ids = await seedWidgets(`sqlite:${file}`, { app, widgets });
    for (const suffix of ["-wal", "-shm"]) if (existsSync(file + suffix)) rmSync(file + suffix);
    bases[key] = file;
  }
  // The peers read the widgets table only: they take the web app's file.
  return { ids, widgets, base: (variant) => (variant.app === API_APP ? bases.api : bases.web) };
}

/** Environment of a variant's server against its own copy of the database file. */
export function variantEnv(file) {
  return {
    DATABASE_FILE: file,
    DATABASE_URL: `sqlite:${file}`,
    GO_ENV: "production",
    SESSION_SECRET,
  };
}

/** Environment of a Wisent app's server against the PostgreSQL database at `url`. */
export function postgresVariantEnv(url) {
  return { DATABASE_URL: url, GO_ENV: "production", SESSION_SECRET };
}

/** A page's HTML with its per-request CSRF token blanked out. */
const withoutToken = (html) => html.replace(/(name="csrf-token" content=")[^"]*"/, '$1"');

/**
 * Every peer must send the web app's page (the same document, but for the per-request CSRF
 * token), so that the HTML rows compare the same work; throws naming the first difference.
 */
async function samePages(servers, workload) {
  const page = async (name) => {
    const res = await fetch(servers.get(name).url + workload.paths[0], {
      headers: workload.headers,
    });
    return withoutToken(await res.text());
  };
  const expected = await page("wisent-web");
  for (const name of servers.keys()) {
    // The Wisent apps and the JSON-only peers (html: false) are not page peers.
    if (name.startsWith("wisent") || variantNamed(name)?.html === false) continue;
    const actual = await page(name);
    if (actual === expected) continue;
    let at = 0;
    while (actual[at] === expected[at]) at++;
    throw new Error(
      `${name} ${workload.name}: its page differs from the web app's at ${at}:\n  web app: ${expected.slice(at - 40, at + 80)}\n  ${name}: ${actual.slice(at - 40, at + 80)}`,
    );
  }
}

async function preflight(server, variant, workload) {
  const res = await fetch(server.url + workload.paths[0], {
    method: workload.method ?? "GET",
    headers: workload.headers,
    body: workload.body,
  });
  const text = await res.text();
  const [status, kind] = workload.expect;
  const type = res.headers.get("content-type") ?? "";
  if (res.status !== status || !type.includes(kind)) {
    throw new Error(
      `${variant.name} ${workload.name}: expected ${status} ${kind}, got ${res.status} ${type}: ${text.slice(0, 300)}`,
    );
  }
}

/**
 * Runs the throughput phase; returns { rows (Markdown), results, goals }.
 * Options: rounds (>= 3), seconds per run, warmup seconds, connections, rows to seed.
 */
export async function throughput({
  rounds = 3,
  seconds = 3,
  warmup = 2,
  connections = 50,
  rows = 10_000,
} = {}) {
  const dir = mkdtempSync(join(tmpdir(), "wisent-load-"));
  const servers = new Map();
  try {
    const { ids, base } = await seedFiles(dir, rows);
    for (const variant of VARIANTS) {
      const file = join(dir, `${variant.name}.sqlite`);
      copyFileSync(base(variant), file);
      servers.set(variant.name, await startVariant(variant, { env: variantEnv(file) }));
    }
    // A returning browser: the web app's session cookie, sent by every HTML request to every variant.
    let cookie = "";
    if (servers.has("wisent-web")) {
      const first = await fetch(`${servers.get("wisent-web").url}/widgets`, {
        headers: { Accept: HTML_ACCEPT, ...BEHIND_PROXY },
      });
      await first.text();
      cookie = (first.headers.getSetCookie()[0] ?? "").split(";")[0];
      if (!cookie.startsWith("_shop_session="))
        throw new Error(`no session cookie from the web app: ${cookie}`);
    }

    const loads = only(workloads(ids, cookie), process.env.BENCH_WORKLOADS);
    const runs = [];
    const runsOf = (workload) =>
      VARIANTS.filter((v) => (workload.html ? v.html !== false : !v.pagesOnly)).map((variant) => ({
        workload,
        variant,
      }));
    // Pages are checked first: a JSON create's preflight adds a row to some variants' databases
    // (not to the pages-only peers'), which would give their index another page count.
    for (const workload of [...loads.filter((w) => w.html), ...loads.filter((w) => !w.html)]) {
      for (const { variant } of runsOf(workload)) {
        await preflight(servers.get(variant.name), variant, workload);
      }
      if (workload.html && servers.has("wisent-web")) await samePages(servers, workload);
      if (!workload.html && servers.has("wisent-api")) await sameJson(servers, workload);
    }
    for (const workload of loads) {
      const script = writeScript(dir, workload.name, workload);
      for (const run of runsOf(workload)) runs.push({ ...run, script });
    }
    // Warm-up: every pair once (JIT, caches), not recorded.
    for (const run of runs) {
      await runWrk(servers.get(run.variant.name).url, run.script, { seconds: warmup, connections });
    }
    const results = {};
    for (let round = 0; round < rounds; round++) {
      for (const run of runs) {
        const server = servers.get(run.variant.name);
        const cpuBefore = cpuSeconds(server.pid);
        const r = await runWrk(server.url, run.script, { seconds, connections });
        // Server CPU time per request: steadier than req/s when other work shares the machine.
        r.cpuUs = ((cpuSeconds(server.pid) - cpuBefore) / r.requests) * 1e6;
        if (r.errors > 0) {
          throw new Error(
            `${run.variant.name} ${run.workload.name}: ${r.errors} errors (${r.statusErrors} bad statuses)`,
          );
        }
        results[run.workload.name] ??= {};
        results[run.workload.name][run.variant.name] ??= [];
        results[run.workload.name][run.variant.name].push(r);
      }
      process.stderr.write(`  round ${round + 1}/${rounds} done\n`);
    }
    return { ...summarise(loads, results), results };
  } finally {
    for (const server of servers.values()) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Issue 17's goals: [workload, variant, reference, least ratio of req/s, round by round]. */
const GOALS = [
  ["json-show", "wisent-api", "floor", 0.65],
  ["json-show", "wisent-web", "floor", 0.55],
  ["json-list", "wisent-api", "floor", 0.85],
  ["json-list", "wisent-web", "floor", 0.85],
  ["json-create", "wisent-api", "express", 2],
  // The same JSON API written as a careful user would on Fastify 5 and on Hono.
  ["json-show", "wisent-api", "fastify-api", 1.15],
  ["json-show", "wisent-api", "hono-api", 1.0],
  // Pages against Express 5 rendering the same markup with EJS, and against the floor rendering
  // it with hono/jsx.
  ["html-index", "wisent-web", "express-ejs", 2],
  ["html-show", "wisent-web", "express-ejs", 2],
  ["html-index", "wisent-web", "floor", 1.0],
];

/** The p99 goal: [workload, variant, reference, most p99 / the reference's p99, round by round]. */
const P99_GOALS = [["json-show", "wisent-api", "floor", 2.5]];

function summarise(loads, results) {
  const lines = [];
  lines.push(
    "| workload | variant | req/s median (min-max) | p99 median | server CPU per request | vs floor | vs bare Hono | vs Express 5 |",
  );
  lines.push("|---|---|---|---|---|---|---|---|");
  for (const workload of loads) {
    const byVariant = results[workload.name];
    for (const variant of VARIANTS) {
      const rounds = byVariant[variant.name];
      if (!rounds) continue;
      const rps = spread(rounds.map((r) => r.rps));
      const p99 = spread(rounds.map((r) => r.p99_ms)).median;
      const cpu = spread(rounds.map((r) => r.cpuUs)).median;
      const vs = (other) =>
        other === variant.name || !byVariant[other]
          ? ""
          : fmtRatio(pairRatio(rounds, byVariant[other]));
      lines.push(
        `| ${workload.label} | ${variant.label} | ${fmtRps(rps)} | ${fmtMs(p99)} | ${cpu.toFixed(0)} us | ${vs("floor")} | ${vs("hono")} | ${vs("express")} |`,
      );
    }
  }
  const goals = [];
  for (const [workload, a, b, target] of GOALS) {
    if (!results[workload]?.[a] || !results[workload][b]) continue;
    const r = pairRatio(results[workload][a], results[workload][b]);
    goals.push({
      text: `${workload}: ${a} / ${b} >= ${target}`,
      ratio: r,
      met: r.median >= target,
    });
  }
  for (const [workload, a, b, most] of P99_GOALS) {
    const [ra, rb] = [results[workload]?.[a], results[workload]?.[b]];
    if (!ra || !rb) continue;
    const r = spread(ra.slice(0, rb.length).map((round, i) => round.p99_ms / rb[i].p99_ms));
    goals.push({
      text: `${workload}: p99 of ${a} / ${b}'s <= ${most}`,
      ratio: r,
      met: r.median <= most,
    });
  }
  const goalLines = goals.map(
    (g) => `- ${g.met ? "met" : "NOT met"}: ${g.text} (${fmtRatio(g.ratio)})`,
  );
  return { table: lines.join("\n"), goals: goalLines.join("\n") };
}
