/**
 * Scale-out on PostgreSQL (a throwaway database on the local server, WISENT_BENCH_POSTGRES_URL,
 * default postgres://postgres@127.0.0.1:5432/test, migrated by the generated API app's own
 * `wisent migrate`): the API app under `wisent start --workers 1` and `--workers 2`, JSON show and
 * JSON create, interleaved rounds; then 200 parallel creates from 4 client processes must leave
 * exactly 200 rows (asserted). Not pinned: 2 workers need both cores.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "wisent/db";
import { apiApp } from "./lib/apps.mjs";
import { createDatabases } from "./lib/postgres.mjs";
import { fmtMs, fmtRatio, fmtRps, pairRatio, spread } from "./lib/report.mjs";
import { seedWidgets } from "./lib/seed.mjs";
import { runWrk, writeScript } from "./lib/wrk.mjs";
import { startVariant, variantNamed, workloads } from "./throughput.mjs";

const api = variantNamed("wisent-api");

/** 4 client processes x 50 parallel POSTs with a marker title; returns the statuses. */
async function parallelCreates(url, marker) {
  const client = `
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      fetch(${JSON.stringify(`${url}/widgets`)}, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ title: ${JSON.stringify(marker)} + " " + process.argv[1] + "-" + i }),
      }).then(async (r) => { await r.text(); return r.status; })));
    console.log(JSON.stringify(statuses));`;
  const runs = Array.from(
    { length: 4 },
    (_, n) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", client, String(n)], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.once("exit", (code) =>
          code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client ${n} failed`)),
        );
      }),
  );
  return (await Promise.all(runs)).flat();
}

export async function scaleOut({ rounds = 3, seconds = 3, warmup = 2, connections = 50 } = {}) {
  let made;
  try {
    made = await createDatabases("wisent_load", ["scale"]);
  } catch (error) {
    return { table: `skipped: PostgreSQL not reachable (${error.message})` };
  }
  const url = new URL(made.urls.scale);
  const dir = mkdtempSync(join(tmpdir(), "wisent-scale-"));
  const servers = {};
  try {
    const ids = await seedWidgets(url.href, { app: apiApp() });
    const env = { DATABASE_URL: url.href, GO_ENV: "development" };
    for (const workers of [1, 2]) {
      // Ready once `wisent start` says every worker listens ("done  2 workers (pids ...)").
      servers[workers] = await startVariant(api, {
        env,
        unpinned: true,
        args: ["--workers", String(workers)],
        ready: workers === 1 ? /listening on/ : new RegExp(`done\\s+${workers} workers`),
      });
    }
    const [show, , create] = workloads(ids, "");
    const scripts = {
      show: writeScript(dir, "show", show),
      create: writeScript(dir, "create", create),
    };
    for (const w of [1, 2])
      for (const s of Object.values(scripts))
        await runWrk(servers[w].url, s, { seconds: warmup, connections, unpinned: true });
    const results = { show: { 1: [], 2: [] }, create: { 1: [], 2: [] } };
    for (let r = 0; r < rounds; r++) {
      for (const kind of ["show", "create"]) {
        for (const w of [1, 2]) {
          const res = await runWrk(servers[w].url, scripts[kind], {
            seconds,
            connections,
            unpinned: true,
          });
          if (res.errors > 0)
            throw new Error(`scale-out ${kind} with ${w} workers: ${res.errors} errors`);
          results[kind][w].push(res);
        }
      }
    }
    const lines = [
      "| workload | `wisent start --workers` | req/s median (min-max) | p99 median | 2 workers vs 1 |",
      "|---|---|---|---|---|",
    ];
    for (const kind of ["show", "create"]) {
      for (const w of [1, 2]) {
        const rows = results[kind][w];
        lines.push(
          `| JSON ${kind} | ${w} | ${fmtRps(spread(rows.map((x) => x.rps)))} | ${fmtMs(spread(rows.map((x) => x.p99_ms)).median)} | ${w === 2 ? fmtRatio(pairRatio(rows, results[kind][1])) : ""} |`,
        );
      }
    }
    // 200 parallel creates from 4 client processes against the 2-worker server.
    const marker = `parallel-${Date.now()}`;
    const statuses = await parallelCreates(servers[2].url, marker);
    const db = await openDatabase(url.href, { poolSize: 1 });
    const counted = await db.kysely
      .selectFrom("widgets")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("title", "like", `${marker} %`)
      .executeTakeFirstOrThrow();
    await db.close();
    const created = statuses.filter((s) => s === 201).length;
    const rowsLeft = Number(counted.n);
    if (created !== 200 || rowsLeft !== 200) {
      throw new Error(
        `200 parallel creates: ${created} answered 201, ${rowsLeft} rows stored (expected 200 and 200)`,
      );
    }
    lines.push(
      "",
      `200 parallel creates from 4 client processes on 2 workers: ${created} answered 201, ${rowsLeft} rows stored (asserted: exactly 200).`,
    );
    return { table: lines.join("\n") };
  } finally {
    for (const s of Object.values(servers)) await s.stop();
    rmSync(dir, { recursive: true, force: true });
    await made.drop();
  }
}
