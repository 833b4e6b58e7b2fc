/**
 * The servers of the live bench: examples/shop (its widgets are `live: true`) under `wisent
 * start` in production, as a user starts it, and a copy of it whose widgets are not live (the
 * baseline of a create's cost), each on a database of its own: a SQLite file, or a throwaway
 * PostgreSQL database shared by the processes of a cross-process run.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { openDatabase } from "wisent/db";
import { CLI, migrateApp, ROOT, SHOP, wisent } from "../load/lib/apps.mjs";
import { BEHIND_PROXY, reachable, startServer } from "../load/lib/servers.mjs";

/** Preloaded into a server whose memory is read: acts only on SIGUSR2 (see its header). */
export const PROBE = fileURLToPath(new URL("../load/lib/memory-probe.mjs", import.meta.url));
export const POSTGRES =
  process.env.WISENT_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS = process.env.WISENT_BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/0";
const SESSION_SECRET = "live-bench-session-secret-".padEnd(64, "x");
/** The not-live copy of the shop (git-ignored scratch space, so `wisent` resolves from the root). */
const PLAIN_SHOP = join(ROOT, "bench/results/live/shop-plain");

/**
 * Builds the shop, and a copy of it whose widgets are not live (the same app but for the
 * resource's `{ live: true }`), built too; returns both folders. Built once here so servers
 * started side by side never race to build.
 */
export function prepareApps() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  wisent(SHOP, ["build"]);
  rmSync(PLAIN_SHOP, { recursive: true, force: true });
  cpSync(SHOP, PLAIN_SHOP, {
    recursive: true,
    filter: (src) => !/\/(node_modules|dist|\.wisent)(\/|$)|\.sqlite/.test(src.slice(SHOP.length)),
  });
  const appFile = join(PLAIN_SHOP, "src/app.ts");
  const source = readFileSync(appFile, "utf8");
  const live = 'app.resource("/widgets", new WidgetsResource(), { live: true })';
  if (!source.includes(live)) throw new Error(`examples/shop/src/app.ts no longer says ${live}`);
  writeFileSync(appFile, source.replace(live, 'app.resource("/widgets", new WidgetsResource())'));
  wisent(PLAIN_SHOP, ["build"]);
  return { live: SHOP, plain: PLAIN_SHOP };
}

/** A fresh SQLite file in `dir`, migrated by the shop: its `sqlite:` URL. */
export function sqliteDatabase(dir, name) {
  const url = `sqlite:${join(dir, `${name}.sqlite`)}`;
  migrateApp(SHOP, url);
  return url;
}

/** A throwaway PostgreSQL database migrated by the shop: { url, drop() }, or undefined without one. */
export async function postgresDatabase() {
  if (!(await reachable(Number(new URL(POSTGRES).port || 5432)))) return undefined;
  const admin = await openDatabase(POSTGRES, { poolSize: 1 });
  const name = `wisent_live_bench_${Date.now()}`;
  await sql`create database ${sql.id(name)}`.execute(admin.kysely);
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  migrateApp(SHOP, url.href);
  return {
    url: url.href,
    async drop() {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.kysely);
      await admin.close();
    },
  };
}

/**
 * Starts `app` under `wisent start [--workers N]` in production on `database`, broadcasting
 * over `live` (LIVE_URL; unset: in memory, or between the workers); `probe` preloads the memory
 * probe writing into that folder. Resolves { pid, url, stop() } once it answers.
 */
export function startShop(app, { database, live, workers = 1, probe, maxConnections = 20_000 }) {
  return startServer(CLI, {
    cwd: app,
    args: ["start", ...(workers > 1 ? ["--workers", String(workers)] : [])],
    unpinned: true,
    nodeArgs: probe ? ["--import", PROBE] : [],
    ready: workers > 1 ? new RegExp(`done\\s+${workers} workers`) : undefined,
    startupMs: 60_000,
    env: {
      GO_ENV: "production",
      SESSION_SECRET,
      DATABASE_URL: database,
      LIVE_MAX_CONNECTIONS: String(maxConnections),
      ...(live ? { LIVE_URL: live } : {}),
      ...(probe ? { MEMORY_PROBE_DIR: probe } : {}),
    },
  });
}

/** The path of the widgets' event stream, as the JSON list names it (`X-Live-Stream`). */
export async function widgetStreamPath(url) {
  const res = await fetch(`${url}/widgets?per_page=1`, {
    headers: { Accept: "application/json", ...BEHIND_PROXY },
  });
  await res.arrayBuffer();
  const path = res.headers.get("x-live-stream");
  if (!path) throw new Error(`${url}/widgets names no live stream (status ${res.status})`);
  return path;
}

/**
 * The server's memory (`pid`, preloaded with the probe writing into `dir`): the resident set from
 * /proc, and the probe's record after a full collection. In bytes: { rss, heapUsed, retained }.
 */
export async function memoryOf(pid, dir) {
  const file = join(dir, `${pid}.jsonl`);
  const lines = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n") : [""]);
  const before = lines().length;
  process.kill(pid, "SIGUSR2");
  const started = Date.now();
  while (lines().length <= before) {
    if (Date.now() - started > 60_000) throw new Error(`process ${pid} did not answer SIGUSR2`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const record = JSON.parse(lines().at(-2));
  // The resident set after the probe's collection (the kernel's, not the probe's earlier one).
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) * 1024;
  return { rss, heapUsed: record.heapUsed, retained: record.retained };
}

/**
 * CPU time the process `pid` has used so far, all its threads, in nanoseconds (Linux's
 * schedstat; /proc/<pid>/stat counts in 10 ms ticks, too coarse for a round of creates).
 */
export function cpuNanoseconds(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}
