/**
 * Lists at scale (issue 32): the generated API app (`wisent new shop --api`, `wisent g r widget
 * title description:nulls.Text`, under `wisent start` in production) answering `GET
 * /widgets.json` over a widgets table of growing size, on PostgreSQL and SQLite:
 *   - page 1: sequential requests, median latency;
 *   - the next-link walk: follow `rel="next"` from page 1, median latency of a step;
 *   - a page near the end: `?page=<last - 1>` (a 400 naming the cursor past the offset limit),
 *     and the last page by cursor (`?before=`);
 *   - memory (`--memory N`, at the largest size): resident set after a warm-up and after N list
 *     requests (8 at a time, pages by number and by cursor).
 * Results are kept per database and size in bench/results/data-scale.json (git-ignored), so the
 * sizes can be measured in separate runs; `--report` prints the tables, as ratios to the
 * smallest size of each database.
 *
 *   node bench/data-scale/run.mjs --db postgres --sizes 10000,1000000 [--memory 100000]
 *   node bench/data-scale/run.mjs --db sqlite --sizes 1000,1000000
 *   node bench/data-scale/run.mjs --report
 *
 * Rows load fast: PostgreSQL in one `insert ... select from generate_series` per million
 * (UUIDv7-shaped ids from the row's millisecond), SQLite in one transaction with a prepared
 * insert; both are then analyzed, as a database in service is (autovacuum, `PRAGMA optimize`).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { uuidv7 } from "wisent/db";
import { median } from "../lib/measure.mjs";
import { apiApp, CLI, migrateApp as migrateOnce } from "../load/lib/apps.mjs";
import { BEHIND_PROXY, residentMiB, startServer } from "../load/lib/servers.mjs";

const require = createRequire(import.meta.url);
const RESULTS = fileURLToPath(new URL("../results/data-scale.json", import.meta.url));
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const HEADERS = { Accept: "application/json", ...BEHIND_PROXY };
const PER_PAGE = 20;

const { values: options } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    sizes: { type: "string" },
    memory: { type: "string" },
    samples: { type: "string", default: "31" },
    report: { type: "boolean", default: false },
  },
});

/** `wisent migrate`, once more should its process die on exit (better-sqlite3's teardown on a loaded machine). */
function migrateApp(app, url) {
  try {
    return migrateOnce(app, url);
  } catch {
    return migrateOnce(app, url);
  }
}

// --- loading ---------------------------------------------------------------------------------

/** A fresh PostgreSQL database for one size: { url, drop() }. */
async function postgresDatabase() {
  const pg = require("pg");
  const name = `wisent_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function loadPostgres(url, rows) {
  const pg = require("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const base = Date.now() - rows;
  try {
    for (let from = 1; from <= rows; from += 1_000_000) {
      const to = Math.min(rows, from + 999_999);
      // A UUIDv7 of the row's millisecond: 48 bits of time, version 7, variant 8, hash bits.
      await client.query(
        `insert into widgets (id, title, description, created_at, updated_at)
         select (lpad(to_hex($1::bigint + g), 12, '0') || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15))::uuid,
                'Widget ' || g,
                case when g % 3 = 0 then null else 'Description of widget ' || g || ', a fine thing.' end,
                to_timestamp(($1::bigint + g) / 1000.0), to_timestamp(($1::bigint + g) / 1000.0)
         from generate_series($2::int, $3::int) g, lateral (select md5(g::text) as h) x`,
        [base, from, to],
      );
    }
    await client.query("analyze widgets");
  } finally {
    await client.end();
  }
}

function loadSqlite(file, rows) {
  const Sqlite = require("better-sqlite3");
  const db = new Sqlite(file);
  try {
    const insert = db.prepare(
      "insert into widgets (id, title, description, created_at, updated_at) values (?, ?, ?, ?, ?)",
    );
    const base = Date.now() - rows;
    db.transaction(() => {
      for (let i = 1; i <= rows; i++) {
        const at = new Date(base + i).toISOString();
        const description = i % 3 === 0 ? null : `Description of widget ${i}, a fine thing.`;
        insert.run(uuidv7(base + i), `Widget ${i}`, description, at, at);
      }
    })();
    db.exec("analyze");
  } finally {
    db.close();
  }
}

/** A loaded database of `rows` widgets: { url, drop() }. */
async function loadedDatabase(db, rows, app) {
  if (db === "postgres") {
    const made = await postgresDatabase();
    migrateApp(app, made.url);
    await loadPostgres(made.url, rows);
    return made;
  }
  const dir = mkdtempSync(join(tmpdir(), "wisent-data-scale-"));
  const file = join(dir, "scale.sqlite");
  migrateApp(app, `sqlite:${file}`);
  loadSqlite(file, rows);
  return { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

// --- measuring -------------------------------------------------------------------------------

/** One GET: { ms, status, link }. */
async function get(base, path) {
  const started = performance.now();
  const res = await fetch(base + path, { headers: HEADERS });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, link: res.headers.get("link") };
}

function linkTo(header, rel) {
  const match = new RegExp(`<([^>]*)>; rel="${rel}"`).exec(header ?? "");
  return match ? match[1].replace(/^https?:\/\/[^/]+/, "") : undefined;
}

async function timed(base, path, samples) {
  const runs = [];
  for (let i = 0; i < samples; i++) runs.push(await get(base, path));
  const statuses = [...new Set(runs.map((r) => r.status))].join("/");
  return { ms: median(runs.map((r) => r.ms)), status: statuses };
}

async function walk(base, steps) {
  let target = `/widgets.json?per_page=${PER_PAGE}`;
  const times = [];
  const statuses = new Set();
  for (let i = 0; i <= steps && target; i++) {
    const r = await get(base, target);
    statuses.add(r.status);
    if (i > 0) times.push(r.ms); // the steps after page 1
    target = linkTo(r.link, "next");
  }
  return { ms: median(times), steps: times.length, status: [...statuses].join("/") };
}

async function memory(server, total) {
  const paths = [];
  for (let page = 1; page <= 50; page++) paths.push(`/widgets.json?page=${page}`);
  // Pages by cursor too: the walk's next links.
  let target = "/widgets.json?after=";
  for (let i = 0; i < 50 && target; i++) {
    paths.push(target);
    target = linkTo((await get(server.url, target)).link, "next");
  }
  let done = 0;
  const run = async (count) => {
    const goal = done + count;
    const worker = async () => {
      while (done < goal) {
        const path = paths[done++ % paths.length];
        const res = await fetch(server.url + path, { headers: HEADERS });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  };
  const warm = Math.min(10_000, Math.round(total / 10));
  await run(warm);
  const afterWarmUp = await residentMiB(server.pid);
  await run(total - warm);
  const atEnd = await residentMiB(server.pid);
  return { warm, total: done, afterWarmUp, atEnd, growth: (atEnd - afterWarmUp) / afterWarmUp };
}

async function measure(db, rows, app, samples, memoryRequests) {
  const loadStarted = performance.now();
  const database = await loadedDatabase(db, rows, app);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  let server;
  try {
    server = await startServer(CLI, {
      args: ["start"],
      cwd: app,
      env: { DATABASE_URL: database.url, GO_ENV: "production" },
      probePath: "/widgets.json?per_page=1",
      startupMs: 120_000,
    });
    const base = server.url;
    for (let i = 0; i < 30; i++) await get(base, "/widgets.json");
    const lastPage = Math.ceil(rows / PER_PAGE);
    const result = {
      rows,
      loadSeconds,
      page1: await timed(base, "/widgets.json", samples),
      walk: await walk(base, samples),
      nearEnd: {
        page: lastPage - 1,
        ...(await timed(base, `/widgets.json?page=${lastPage - 1}`, 9)),
      },
      lastByCursor: await timed(base, "/widgets.json?before=", 9),
      at: new Date().toISOString(),
      load: (await import("node:os")).loadavg()[0],
    };
    if (memoryRequests) result.memory = await memory(server, memoryRequests);
    return result;
  } finally {
    await server?.stop();
    await database.drop();
  }
}

// --- reporting -------------------------------------------------------------------------------

function readResults() {
  return existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, "utf8")) : {};
}

const ms = (value) => `${value.toFixed(2)} ms`;
const ratio = (value, base) => `${(value / base).toFixed(2)}x`;

function report(results) {
  const lines = [];
  for (const [db, bySize] of Object.entries(results)) {
    const sizes = Object.values(bySize).sort((a, b) => a.rows - b.rows);
    if (sizes.length === 0) continue;
    const [smallest] = sizes;
    lines.push(
      `${db === "postgres" ? "PostgreSQL" : "SQLite"}, ratios to ${smallest.rows.toLocaleString("en-US")} rows:`,
      "",
      "| rows | page 1 | ratio | next step | ratio | next / page 1 | page near the end | last page by cursor | load avg |",
      "|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    );
    for (const r of sizes) {
      lines.push(
        `| ${r.rows.toLocaleString("en-US")} | ${ms(r.page1.ms)} | ${ratio(r.page1.ms, smallest.page1.ms)} | ${ms(r.walk.ms)} | ${ratio(r.walk.ms, smallest.walk.ms)} | ${ratio(r.walk.ms, r.page1.ms)} | ${r.nearEnd.status} in ${ms(r.nearEnd.ms)} (page ${r.nearEnd.page.toLocaleString("en-US")}) | ${ms(r.lastByCursor.ms)} | ${r.load.toFixed(1)} |`,
      );
    }
    for (const r of sizes) {
      if (!r.memory) continue;
      const m = r.memory;
      lines.push(
        "",
        `Memory at ${r.rows.toLocaleString("en-US")} rows: ${m.afterWarmUp.toFixed(1)} MiB after ${m.warm.toLocaleString("en-US")} list requests, ${m.atEnd.toFixed(1)} MiB after ${m.total.toLocaleString("en-US")}: ${(m.growth * 100).toFixed(1)}% (goal <= +10%: ${m.growth <= 0.1 ? "met" : "NOT met"}).`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

// --- main ------------------------------------------------------------------------------------

if (!options.report) {
  const db = options.db;
  if (db !== "postgres" && db !== "sqlite") throw new Error("--db postgres or --db sqlite");
  const sizes = (
    options.sizes ?? (db === "postgres" ? "10000,1000000,10000000" : "1000,10000,1000000")
  )
    .split(",")
    .map(Number);
  const app = apiApp();
  const samples = Number(options.samples);
  const results = readResults();
  results[db] ??= {};
  for (const rows of sizes) {
    const largest = rows === Math.max(...sizes);
    const memoryRequests = largest && options.memory ? Number(options.memory) : undefined;
    console.error(`${db}: ${rows.toLocaleString("en-US")} rows...`);
    const result = await measure(db, rows, app, samples, memoryRequests);
    console.error(
      `  loaded in ${result.loadSeconds.toFixed(1)} s; page 1 ${ms(result.page1.ms)}, next ${ms(result.walk.ms)}, near the end ${result.nearEnd.status} ${ms(result.nearEnd.ms)}`,
    );
    results[db][rows] = result;
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  }
}
console.log(report(readResults()));
