/**
 * Two builds of Wisent, priced in CPU instructions per request rather than requests per second:
 * each build's app is started under valgrind's callgrind (instrumentation off), warmed up, then
 * instrumented for a fixed number of requests, so the count is the server's own work for those
 * requests (all its threads, the garbage collector's included) and does not depend on what else
 * the machine is doing. Repeat runs of one build agree within about 0.5%; use it to bisect and to
 * A/B a change on a busy machine, and bench/load/ab.mjs on a quiet one for requests per second
 * (instructions miss cache misses and stalls, which a throughput run sees).
 *
 *   node bench/load/ab-instructions.mjs <dirA> <dirB> [<dirC> ...]
 *
 * More than two dirs (a bisect's steps) are measured in turn, each against the one before it.
 * The dirs are laid out as for bench/load/ab.mjs (bench/lib/baseline-build.mjs, with `app/` for
 * the shop as of that commit; without it, the generated API app). Needs valgrind (Debian's
 * `valgrind` package: callgrind and callgrind_control).
 * Environment: BENCH_WORKLOADS (json-show,html-index), BENCH_REQUESTS (1500, measured),
 * BENCH_WARMUP_REQUESTS (1500), BENCH_CONCURRENCY (2: under valgrind a deep queue of waiting
 * requests runs into the server's request timeout).
 */
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { buildCli } from "../lib/baseline-build.mjs";
import { API_APP, apiApp, SHOP } from "./lib/apps.mjs";
import { BEHIND_PROXY, freePort, untilAnswering } from "./lib/servers.mjs";
import { seedFiles, variantEnv, workloads } from "./throughput.mjs";

const dirs = process.argv.slice(2).map((d) => resolve(d));
if (dirs.length < 2) {
  console.error("usage: node bench/load/ab-instructions.mjs <dirA> <dirB> [<dirC> ...]");
  process.exit(2);
}
if (spawnSync("callgrind_control", ["--version"]).error) {
  console.error("callgrind_control not found: apt-get install valgrind");
  process.exit(2);
}
const requests = Number(process.env.BENCH_REQUESTS ?? 1500);
const warmupRequests = Number(process.env.BENCH_WARMUP_REQUESTS ?? 1500);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 2);
const names = (process.env.BENCH_WORKLOADS ?? "json-show,html-index").split(",");
const keep = process.env.BENCH_CALLGRIND_DIR ? resolve(process.env.BENCH_CALLGRIND_DIR) : undefined;

/** Sends `count` requests of `workload` over `concurrency` kept-alive connections; throws on a wrong status. */
async function load(url, workload, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const { port } = new URL(url);
  const [status] = workload.expect;
  let sent = 0;
  const one = (path) =>
    new Promise((done, fail) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path,
          method: workload.method ?? "GET",
          agent,
          headers: workload.headers,
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode === status) return done();
            const error = new Error(`${path}: ${res.statusCode}`);
            // 408: the slowed-down server timed the request out while it waited its turn.
            error.code = res.statusCode === 408 ? "E408" : undefined;
            fail(error);
          });
        },
      );
      req.on("error", fail);
      req.end(workload.body);
    });
  // A kept-alive connection the slowed-down server closed as the next request went out is reset:
  // that request is sent again (on a new connection), as a browser retries an idempotent one.
  const sendRetrying = async (path) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await one(path);
      } catch (error) {
        if (attempt === 3 || !["ECONNRESET", "EPIPE", "E408"].includes(error.code)) throw error;
      }
    }
  };
  const worker = async () => {
    while (sent < count) await sendRetrying(workload.paths[sent++ % workload.paths.length]);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
}

/** The process `pid` and its descendants (a server that forks workers). */
function processTree(pid) {
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  const below = children.stdout.split("\n").filter(Boolean).map(Number);
  return [pid, ...below.flatMap(processTree)];
}

/**
 * callgrind_control's command to this run's server and its children, by pid: without one it
 * reaches every callgrind process of the user, another run's (bench running beside it) included.
 */
function control(args, env, pid) {
  const run = spawnSync("callgrind_control", [...args, ...processTree(pid).map(String)], {
    env,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`callgrind_control ${args.join(" ")}: ${run.stderr}`);
}

/** The highest dump number among the callgrind files named `<prefix>.<pid>.<n>` (0: none). */
function lastDump(dir, prefix) {
  let last = 0;
  for (const f of readdirSync(dir)) {
    const n = f.startsWith(`${prefix}.`) ? /\.(\d+)\.(\d+)$/.exec(f) : null;
    if (n) last = Math.max(last, Number(n[2]));
  }
  return last;
}

/** Instructions per request of each workload, for the build in `dir`. */
async function measure(dir, base, ids, tmp) {
  const own = join(dir, "app");
  const web = existsSync(own);
  const app = join(dir, "shop-instructions");
  rmSync(app, { recursive: true, force: true });
  cpSync(web ? own : API_APP, app, { recursive: true, filter: (src) => !src.includes("/db/") });
  const cli = buildCli(dir);
  // Built outside valgrind: esbuild's Go binary does not run under it.
  const built = spawnSync(process.execPath, [cli, "build"], { cwd: app, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`wisent build in ${app}: ${built.stdout}${built.stderr}`);
  const results = new Map();
  for (const name of names) {
    const file = join(tmp, `${basename(dir)}-${name}.sqlite`);
    copyFileSync(base({ app: web ? SHOP : API_APP }), file);
    const port = await freePort();
    const out = join(tmp, `${basename(dir)}-${name}`);
    // vgdb names its pipes after HOST; callgrind_control must be given the server's.
    const env = {
      ...process.env,
      ...variantEnv(file),
      NO_COLOR: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      // The bench is the TLS proxy: its X-Forwarded-Proto counts only from TRUSTED_PROXIES.
      TRUSTED_PROXIES: "127.0.0.1",
      USER: process.env.USER ?? "root",
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    };
    const server = spawn(
      "valgrind",
      [
        "--tool=callgrind",
        "--instr-atstart=no",
        "--smc-check=all-non-file",
        "--trace-children=yes",
        `--callgrind-out-file=${out}.%p`,
        process.execPath,
        cli,
        "start",
      ],
      { cwd: app, env, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    server.stderr.on("data", (d) => {
      stderr = (stderr + d).slice(-10_000);
    });
    const url = `http://127.0.0.1:${port}`;
    await untilAnswering(url, server, () => stderr);
    let cookie = "";
    if (name.startsWith("html")) {
      const first = await fetch(`${url}/widgets`, {
        headers: { Accept: "text/html", ...BEHIND_PROXY },
      });
      await first.text();
      cookie = (first.headers.getSetCookie()[0] ?? "").split(";")[0];
    }
    const workload = workloads(ids, cookie).find((w) => w.name === name);
    if (!workload) throw new Error(`unknown workload ${name}`);
    await load(url, workload, warmupRequests);
    // The measured window is the dumps after the first of ours up to the last of ours: another
    // run's untargeted callgrind_control (an older copy of this script) may still turn counting
    // on during the warm-up or dump in between, and nothing counted outside the window is kept.
    control(["-d"], env, server.pid);
    const from = lastDump(tmp, basename(out));
    control(["-i", "on"], env, server.pid);
    await load(url, workload, requests);
    control(["-d"], env, server.pid);
    const to = lastDump(tmp, basename(out));
    control(["-i", "off"], env, server.pid);
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    let total = 0;
    for (const f of readdirSync(tmp).filter((f) => f.startsWith(`${basename(out)}.`))) {
      const n = Number(/\.(\d+)\.(\d+)$/.exec(f)?.[2] ?? 0);
      if (n <= from || n > to) continue;
      const totals = /^totals: (\d+)/m.exec(readFileSync(join(tmp, f), "utf8"));
      total += Number(totals?.[1] ?? 0);
      if (keep && totals) copyFileSync(join(tmp, f), join(keep, f));
    }
    results.set(name, total / requests);
  }
  rmSync(app, { recursive: true, force: true });
  return results;
}

apiApp();
const tmp = mkdtempSync(join(tmpdir(), "wisent-ab-instructions-"));
try {
  const { ids, base } = await seedFiles(tmp, 1000);
  if (keep) mkdirSync(keep, { recursive: true });
  const measured = [];
  for (const dir of dirs) {
    measured.push(await measure(dir, base, ids, tmp));
    if (dirs.length > 2) process.stderr.write(`  ${basename(dir)} measured\n`);
  }
  console.log(
    `${new Date().toISOString()}, node ${process.version}, ${requests} requests measured after ${warmupRequests}\n`,
  );
  if (dirs.length === 2) {
    console.log(`| workload | A: ${basename(dirs[0])} | B: ${basename(dirs[1])} | B / A |`);
    console.log("|---|---|---|---|");
    for (const name of names) {
      const [x, y] = measured.map((m) => m.get(name));
      console.log(
        `| ${name} | ${Math.round(x).toLocaleString("en")} | ${Math.round(y).toLocaleString("en")} | ${(y / x).toFixed(3)} |`,
      );
    }
  } else {
    // A bisect's steps: each build's count per workload and its ratio to the step before it.
    console.log(`| build | ${names.map((n) => `${n} | / previous`).join(" | ")} |`);
    console.log(`|---|${names.map(() => "---|---|").join("")}`);
    for (const [i, dir] of dirs.entries()) {
      const cells = names.map((name) => {
        const y = measured[i].get(name);
        const ratio = i === 0 ? "" : (y / measured[i - 1].get(name)).toFixed(3);
        return `${Math.round(y).toLocaleString("en")} | ${ratio}`;
      });
      console.log(`| ${basename(dir)} | ${cells.join(" | ")} |`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
