/**
 * Cold start, as a user starts things (unpinned, whole processes, interleaved rounds, medians and
 * round-by-round ratios against bare Hono in the same round):
 *
 *   - bare Hono (hono + @hono/node-server, one hello-world route): spawn to its first 200;
 *   - Hono doing the API app's work (peers/api-hono.mjs, the throughput bench's equal-work peer,
 *     which imports wisent's pagination helpers): the same, on GET /widgets;
 *   - each Wisent app (examples/shop, the generated API app), production, compiled (a current
 *     `wisent build`): spawning `wisent start` (the package's bin, as `npx wisent` and the app's
 *     node_modules/.bin run it) to the first 200 on GET /widgets on its own seeded SQLite file;
 *     goal: at most 1.6x bare Hono; and the same with Node's compile cache off
 *     (NODE_DISABLE_COMPILE_CACHE=1), as a start whose cache is empty;
 *   - the same apps from their TypeScript sources through tsx (how `wisent start` ran every app
 *     before `wisent build`), for the before/after table;
 *   - `wisent routes` in examples/shop with a current build, spawn to exit; goal: under 400 ms;
 *
 * Besides wall time, the CPU time each server used up to its first answer (all its threads, read
 * from /proc on Linux) is reported: on a shared machine it moves less than wall time.
 *   - a process that only imports wisent against one that imports hono and @hono/node-server;
 *     goal: at most 1.5x.
 *
 *   node bench/load/run.mjs cold-start          (ROUNDS=7 by default)
 *   node bench/load/cold-start.mjs              (the same, without run.mjs's check for wrk)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiApp, BIN, ROOT, SHOP, wisent } from "./lib/apps.mjs";
import { printStandalone, spread } from "./lib/report.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import { freePort } from "./lib/servers.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SESSION_SECRET = "cold-start-bench-secret-of-at-least-32-characters";
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");

const HONO_HELLO = `
import { serve } from "@hono/node-server";
import { Hono } from "hono";
const app = new Hono();
app.get("/widgets", (c) => c.text("hello"));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
`;

/**
 * CPU milliseconds the process `pid` has used so far, all threads (V8 compiles and collects
 * garbage on helper threads): the sum of /proc/<pid>/task/<tid>/schedstat's first field
 * (nanoseconds on a CPU). Undefined where /proc has no such file.
 */
function cpuMs(pid) {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return undefined;
  let ns = 0;
  for (const tid of readdirSync(tasks)) {
    try {
      ns += Number(readFileSync(`${tasks}/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended meanwhile: its time is no longer counted anywhere; it is small.
    }
  }
  return ns / 1e6;
}

/**
 * Milliseconds from spawning `argv` in `cwd` to the first 200 on `path` (`ms`), and the CPU time
 * the process used to get there (`cpu`).
 */
async function firstAnswer(argv, cwd, env, path) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, argv, {
    cwd,
    // This script is the TLS proxy: its X-Forwarded-Proto counts only from TRUSTED_PROXIES.
    env: {
      ...process.env,
      NO_COLOR: "1",
      TRUSTED_PROXIES: "127.0.0.1",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${argv.join(" ")} exited: ${stderr}`);
      if (performance.now() - started > 30_000) throw new Error("no answer within 30 s");
      let res;
      try {
        res = await fetch(`http://127.0.0.1:${port}${path}`, {
          // Production's force-SSL redirect lets a request through that a proxy marked https.
          headers: { Accept: "application/json", "X-Forwarded-Proto": "https" },
          redirect: "manual",
        });
      } catch {
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`first answer was ${res.status}: ${stderr}`);
      return { ms: performance.now() - started, cpu: cpuMs(child.pid) };
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  }
}

/** Milliseconds for `node argv` in `cwd` to run to its exit. */
function runToExit(argv, cwd, env = {}) {
  const started = performance.now();
  const r = spawnSync(process.execPath, argv, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
  return performance.now() - started;
}

const ms = (s) => `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}-${s.max.toFixed(0)})`;
const ratio = (s) => `${s.median.toFixed(2)}x (${s.min.toFixed(2)}-${s.max.toFixed(2)})`;
const verdict = (ok) => (ok ? "met" : "NOT met");

export async function coldStart() {
  const dir = mkdtempSync(join(tmpdir(), "wisent-cold-"));
  try {
    const hello = join(ROOT, "bench/load/apps", `.hono-hello-${process.pid}.mjs`);
    writeFileSync(hello, HONO_HELLO);
    const importWisent = join(ROOT, "bench/load/apps", `.import-wisent-${process.pid}.mjs`);
    writeFileSync(importWisent, 'await import("wisent");\n');
    const importHono = join(ROOT, "bench/load/apps", `.import-hono-${process.pid}.mjs`);
    writeFileSync(importHono, 'await import("hono");\nawait import("@hono/node-server");\n');
    try {
      const apps = [
        { label: "web app (examples/shop)", dir: SHOP },
        { label: "API app (generated)", dir: apiApp() },
      ];
      const widgets = makeWidgets();
      for (const app of apps) {
        const file = join(dir, `${app.label.replace(/\W+/g, "-")}.sqlite`);
        await seedWidgets(`sqlite:${file}`, { app: app.dir, widgets });
        app.env = {
          GO_ENV: "production",
          DATABASE_URL: `sqlite:${file}`,
          SESSION_SECRET,
        };
        wisent(app.dir, ["build"]);
      }
      // The API app's work on Hono (the throughput bench's equal-work peer; it imports wisent's
      // pagination helpers and defineModel), on the API app's database file.
      const peer = {
        argv: [join(ROOT, "bench/load/peers/api-hono.mjs")],
        env: { DATABASE_FILE: apps[1].env.DATABASE_URL.slice("sqlite:".length) },
      };
      const series = { hono: [], peer: [], importWisent: [], importHono: [], routes: [] };
      const variants = (app) => [
        ["compiled", [BIN, "start"], app.env],
        ["no cache", [BIN, "start"], { ...app.env, NODE_DISABLE_COMPILE_CACHE: "1" }],
        ["tsx", [TSX, "src/server.ts"], app.env],
      ];
      for (const app of apps) {
        for (const [name] of variants(app)) series[`${app.label} ${name}`] = [];
      }
      for (let round = 0; round < ROUNDS; round++) {
        series.hono.push(await firstAnswer([hello], ROOT, {}, "/widgets"));
        series.peer.push(await firstAnswer(peer.argv, ROOT, peer.env, "/widgets"));
        for (const app of apps) {
          for (const [name, argv, env] of variants(app)) {
            series[`${app.label} ${name}`].push(await firstAnswer(argv, app.dir, env, "/widgets"));
          }
        }
        series.routes.push(runToExit([BIN, "routes"], SHOP));
        series.importHono.push(runToExit([importHono], ROOT));
        series.importWisent.push(runToExit([importWisent], ROOT));
      }
      const byRound = (a, b) => spread(a.map((v, i) => v / b[i]));
      const wall = (runs) => runs.map((r) => r.ms);
      const cpu = (runs) => runs.map((r) => r.cpu);
      const hasCpu = series.hono.every((r) => r.cpu !== undefined);
      /** The wall and CPU columns of a server's runs, each with its ratio to bare Hono's. */
      const serverColumns = (runs, { cpuToo = true } = {}) => {
        const cpuColumns =
          hasCpu && cpuToo
            ? `${ms(spread(cpu(runs)))} | ${ratio(byRound(cpu(runs), cpu(series.hono)))}`
            : "| ";
        return `${ms(spread(wall(runs)))} | ${ratio(byRound(wall(runs), wall(series.hono)))} | ${cpuColumns}`;
      };
      const lines = [
        `| what | wall time, median (min-max) over ${ROUNDS} interleaved rounds | wall ratio to bare Hono, round by round | CPU time to the first 200 (all threads) | CPU ratio | goal |`,
        "|---|---|---|---|---|---|",
        `| bare Hono hello world: spawn to first 200 | ${serverColumns(series.hono)} | |`,
        `| Hono doing the API app's work (peers/api-hono.mjs: SQLite, zod, the list page) | ${serverColumns(series.peer)} | |`,
      ];
      for (const app of apps) {
        const compiled = series[`${app.label} compiled`];
        const r = byRound(wall(compiled), wall(series.hono));
        lines.push(
          `| ${app.label}, production, \`wisent start\` (compiled) to first 200 on /widgets | ${serverColumns(compiled)} | <= 1.6x: ${verdict(r.median <= 1.6)} |`,
          `| ${app.label}, the same with Node's compile cache off (a first start) | ${serverColumns(series[`${app.label} no cache`])} | |`,
          // tsx runs the server in a second process, whose CPU time is not the one measured.
          `| ${app.label}, the same sources through tsx (before issue 15) | ${serverColumns(series[`${app.label} tsx`], { cpuToo: false })} | |`,
        );
      }
      const routes = spread(series.routes);
      lines.push(
        `| \`wisent routes\` in examples/shop (current build), spawn to exit | ${ms(routes)} | | | | < 400 ms: ${verdict(routes.median < 400)} |`,
        `| a process that imports hono and @hono/node-server | ${ms(spread(series.importHono))} | 1 | | | |`,
      );
      const imports = byRound(series.importWisent, series.importHono);
      lines.push(
        `| a process that imports wisent | ${ms(spread(series.importWisent))} | ${ratio(imports)} | | | <= 1.5x: ${verdict(imports.median <= 1.5)} |`,
      );
      return { table: lines.join("\n") };
    } finally {
      for (const file of [hello, importWisent, importHono]) rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await printStandalone(coldStart);
