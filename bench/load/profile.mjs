/**
 * Profiles one variant under one workload: `node bench/load/profile.mjs <variant> <workload> [seconds]`
 * (e.g. `wisent-api json-show 5`). Runs the server with `node --cpu-prof`, loads it with wrk, stops
 * it, and prints where the time goes: self time by package/file and the top functions (TOP=N of them),
 * as a share of the profile and in microseconds per request answered.
 * KEEP_PROFILE=1 keeps the .cpuprofile (its folder is printed) for a closer look. PROFILE_DB=postgres
 * serves a fresh database on the server at WISENT_BENCH_POSTGRES_URL instead of a SQLite file.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiApp, SHOP } from "./lib/apps.mjs";
import { createDatabases } from "./lib/postgres.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import { runWrk, writeScript } from "./lib/wrk.mjs";
import {
  BEHIND_PROXY,
  postgresVariantEnv,
  seedFiles,
  startVariant,
  VARIANTS,
  variantEnv,
  variantNamed,
  workloads,
} from "./throughput.mjs";

const [variantName = "wisent-api", workloadName = "json-show", secondsArg = "5"] =
  process.argv.slice(2);
const variant = variantNamed(variantName);
if (!variant) {
  console.error(`unknown variant ${variantName}: ${VARIANTS.map((v) => v.name).join(", ")}`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "wisent-profile-"));
const onPostgres = process.env.PROFILE_DB === "postgres";
let ids;
let env;
let database;
if (onPostgres) {
  database = await createDatabases("wisent_profile", [variant.name]);
  const url = database.urls[variant.name];
  const app = variant.name === "wisent-web" ? SHOP : apiApp();
  ids = await seedWidgets(url, { app, widgets: makeWidgets(10_000) });
  env = postgresVariantEnv(url);
} else {
  const file = join(dir, "app.sqlite");
  const seeded = await seedFiles(dir);
  ids = seeded.ids;
  copyFileSync(seeded.base(variant), file);
  env = variantEnv(file);
}
const profiles = join(dir, "profiles");
// A Wisent app runs under `wisent start`: the profile covers the CLI's process, which is the server.
const server = await startVariant(variant, {
  env,
  nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profiles],
});
let cookie = "";
if (variant.name === "wisent-web") {
  const res = await fetch(`${server.url}/widgets`, {
    headers: { Accept: "text/html", ...BEHIND_PROXY },
  });
  await res.text();
  cookie = (res.headers.getSetCookie()[0] ?? "").split(";")[0];
}
const workload = workloads(ids, cookie).find((w) => w.name === workloadName);
if (!workload) {
  console.error(`unknown workload ${workloadName}`);
  process.exit(2);
}
const result = await runWrk(server.url, writeScript(dir, workload.name, workload), {
  seconds: Number(secondsArg),
});
await server.stop();
await database?.drop();
console.log(
  `${variant.label}, ${workload.label}: ${Math.round(result.rps)} req/s under the profiler\n`,
);

const profile = JSON.parse(readFileSync(join(profiles, readdirSync(profiles)[0]), "utf8"));
const dt = new Map();
const { samples, timeDeltas, nodes } = profile;
const byId = new Map(nodes.map((n) => [n.id, n]));
for (let i = 0; i < samples.length; i++)
  dt.set(samples[i], (dt.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);

const group = (url) => {
  if (!url) return "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0)
    return url
      .slice(nm + 13)
      .split("/")
      .slice(0, url.slice(nm + 13).startsWith("@") ? 2 : 1)
      .join("/");
  if (url.includes("/packages/wisent/"))
    return `wisent/${url.split("/packages/wisent/dist/")[1] ?? url}`;
  if (url.startsWith("node:")) return url;
  return url.replace(/^file:\/\/.*?\/(bench|examples)\//, "$1/");
};
// A built app (`wisent start` serves dist/, minified): its frames are read through the source
// map, so a row names the .ts file and line instead of a minified name in one long line.
const maps = new Map();
const sourceMapOf = (url) => {
  if (!maps.has(url)) {
    let map = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(new URL(`${url}.map`), "utf8")));
    } catch {}
    maps.set(url, map);
  }
  return maps.get(url);
};
const original = ({ url, lineNumber, columnNumber }) => {
  const map = url?.startsWith("file:") && url.includes("/dist/") ? sourceMapOf(url) : null;
  const entry = map?.findEntry(lineNumber, columnNumber);
  if (!entry?.originalSource) return null;
  const file = entry.originalSource.replace(
    /^.*?\/(node_modules|packages\/wisent\/src|src)\//,
    "$1/",
  );
  return `${file}:${entry.originalLine + 1}`;
};
const byGroup = new Map();
const byFn = new Map();
for (const [id, t] of dt) {
  const node = byId.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  const g = group(url);
  const pkg = g.startsWith("wisent/") ? "wisent" : g.startsWith("node:") ? "node: internals" : g;
  byGroup.set(pkg, (byGroup.get(pkg) ?? 0) + t);
  const mapped = original(node.callFrame);
  const key = `${functionName || "(anonymous)"} ${mapped ?? `${g}${url ? `:${lineNumber + 1}` : ""}`}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
}
const pct = (t) => `${((t / total) * 100).toFixed(1)}%`;
// Per request: the profile's sample times are microseconds; start-up samples count too (small
// beside a run of several seconds, and the same for every variant).
const perRequest = (t) => `${(t / result.requests).toFixed(2)} us`;
console.log("| self time | per request | where |\n|---|---:|---|");
for (const [g, t] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`| ${pct(t)} | ${perRequest(t)} | ${g} |`);
console.log("\n| self time | per request | function |\n|---|---:|---|");
for (const [f, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30)))
  console.log(`| ${pct(t)} | ${perRequest(t)} | ${f} |`);
if (!process.env.KEEP_PROFILE) rmSync(dir, { recursive: true, force: true });
else console.log("profile dir", dir);
