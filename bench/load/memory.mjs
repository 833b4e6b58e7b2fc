/**
 * Memory under sustained load: the two Wisent apps (examples/shop, the web chain; the generated
 * API app) under `wisent start` in production, each as one process and with `--workers 2`,
 * answering a mix of requests (JSON show, list and create, the HTML index behind a session, a 404
 * and a 422) until MEMORY_REQUESTS (default 1,000,000; 0: the idle phase only) have been
 * answered; the resident set and the V8 heap are sampled every MEMORY_SAMPLE_EVERY (50,000).
 * Then both apps idle for MEMORY_IDLE_SECONDS (600), sampled ten times. Goal: after the warm-up
 * (the first 20% of the requests, or of the idle time) neither the resident set nor the heap
 * retained grows by more than 10% over its value at the end of the warm-up (a leak grows;
 * settling lower is fine).
 *
 * How the heap is read (lib/memory-probe.mjs, preloaded with `node --import`): the server gets
 * no route and does no extra work per request; at a sample the bench reads the resident set from
 * /proc, then sends SIGUSR2, on which the probe records `process.memoryUsage()` and the heap
 * used after a full collection (the retained heap). With MEMORY_SNAPSHOTS=1 the probe also
 * writes a heap snapshot at the end of the warm-up and at the end of the run, and the bench prints
 * which constructors grew between them (lib/heap-diff.mjs). MEMORY_APPS=web,api and
 * MEMORY_WORKERS=1,2 narrow a run; the servers run with the NODE_OPTIONS of the shop's Dockerfile
 * unless MEMORY_NODE_ARGS gives other Node flags ("" for none), and the
 * servers inherit the bench's environment (MALLOC_ARENA_MAX=2, say).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiApp, SHOP } from "./lib/apps.mjs";
import { heapDiff } from "./lib/heap-diff.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import { residentMiB } from "./lib/servers.mjs";
import { runWrk, writeMixScript } from "./lib/wrk.mjs";
import { BEHIND_PROXY, startVariant, variantEnv, variantNamed } from "./throughput.mjs";

/**
 * The servers' Node flags: as production runs them, the NODE_OPTIONS of the shop's generated
 * Dockerfile (V8's young generation capped); MEMORY_NODE_ARGS replaces them ("" for Node's
 * defaults, to see what the cap saves).
 */
const NODE_ARGS = (process.env.MEMORY_NODE_ARGS ?? dockerfileNodeOptions(SHOP))
  .split(" ")
  .filter(Boolean);

/** The NODE_OPTIONS the app's Dockerfile sets, or "" when it sets none. */
function dockerfileNodeOptions(app) {
  return /NODE_OPTIONS=(\S+)/.exec(readFileSync(join(app, "Dockerfile"), "utf8"))?.[1] ?? "";
}
const PROBE = fileURLToPath(new URL("./lib/memory-probe.mjs", import.meta.url));
const MiB = 1024 * 1024;
const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const JSON_HEADERS = { Accept: "application/json", ...BEHIND_PROXY };
const list = (value, fallback) => (value ?? fallback).split(",").filter(Boolean);

/**
 * The mix, 8 requests a turn: 3 JSON shows, a JSON list page, the HTML index (the web app; a
 * fourth show for the API app), a JSON create, a 404 (a widget that does not exist) and a 422 (a
 * blank title). Ids, pages and missing ids vary from turn to turn, 1000 turns.
 */
function mix(ids, cookie) {
  const requests = [];
  const json = (path) => ({ path, headers: JSON_HEADERS });
  const post = (body) => ({
    method: "POST",
    path: "/widgets",
    headers: { ...JSON_HEADERS, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  for (let t = 0; t < 1000; t++) {
    const page = (t % 50) + 1;
    requests.push(
      json(`/widgets/${ids[(t * 3) % ids.length]}`),
      json(`/widgets/${ids[(t * 3 + 1) % ids.length]}`),
      json(`/widgets/${ids[(t * 3 + 2) % ids.length]}`),
      json(`/widgets?page=${page}`),
      cookie
        ? {
            path: `/widgets?page=${page}`,
            headers: { Accept: HTML_ACCEPT, Cookie: cookie, ...BEHIND_PROXY },
          }
        : json(`/widgets/${ids[(t * 7) % ids.length]}`),
      post({ title: `Memory widget ${t}`, description: t % 2 ? null : "Made under load." }),
      json(`/widgets/0190a6f2-0000-7000-8000-${String(t).padStart(12, "0")}`),
      post({ title: "", description: "blank title" }),
    );
  }
  return requests;
}
const EXPECTED_STATUSES = new Set(["200", "201", "404", "422"]);

/**
 * The server's Node processes: the one started and, under --workers, its cluster workers (they
 * inherit the probe through execArgv). Other children (a tool the app runs, such as esbuild's
 * service) are left out: they do not answer the probe's signal.
 */
function processesOf(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number);
  } catch {
    // gone, or no /proc
  }
  const probed = (p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(PROBE);
    } catch {
      return false;
    }
  };
  return [pid, ...children.filter(probed)];
}

/** One sample: resident set summed over the processes, then each one's probe record. */
async function sample(dir, pid, requests) {
  const pids = processesOf(pid);
  let rss = 0;
  for (const p of pids) rss += await residentMiB(p);
  const records = [];
  for (const p of pids) {
    const file = join(dir, `${p}.jsonl`);
    const before = existsSync(file) ? readFileSync(file, "utf8").split("\n").length : 1;
    process.kill(p, "SIGUSR2");
    const started = Date.now();
    for (;;) {
      const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [""];
      if (lines.length > before) {
        records.push(JSON.parse(lines.at(-2)));
        break;
      }
      if (!existsSync(`/proc/${p}`)) throw new Error(`process ${p} exited before recording`);
      if (Date.now() - started > 300_000) throw new Error(`process ${p} did not answer SIGUSR2`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const sum = (key) => records.reduce((total, r) => total + (r[key] ?? 0), 0) / MiB;
  return {
    requests,
    processes: pids.length,
    rss,
    heapUsed: sum("heapUsed"),
    retained: sum("retained"),
    heapTotal: sum("heapTotal"),
    snapshots: records.map((r) => r.snapshot).filter(Boolean),
    spaces: spacesOf(records),
  };
}

/** V8's heap spaces summed over the processes: "new_space 32.0/1.2 MiB, old_space ...". */
function spacesOf(records) {
  const sums = {};
  for (const r of records) {
    for (const [name, [size, used]] of Object.entries(r.spaces ?? {})) {
      sums[name] ??= [0, 0];
      sums[name][0] += size;
      sums[name][1] += used;
    }
  }
  return Object.entries(sums)
    .filter(([, [size]]) => size >= MiB)
    .map(([name, [size, used]]) => `${name} ${(size / MiB).toFixed(1)}/${(used / MiB).toFixed(1)}`)
    .join(", ");
}

/** Growth of the largest later value over the value at the end of the warm-up. */
const growthAfter = (samples, from, key) => {
  const base = samples[from][key];
  return Math.max(...samples.slice(from).map((s) => s[key])) / base - 1;
};

/**
 * Loads `server` with the mix until `total` requests have been answered, sampling each time
 * another `every` have been; the first sample at or past 20% of `total` ends the warm-up.
 */
async function underLoad(dir, server, script, { total, every, connections }) {
  const samples = [await sample(dir, server.pid, 0)];
  const statuses = {};
  let socketErrors = 0;
  let done = 0;
  let rate = Number.POSITIVE_INFINITY; // the first run lasts a second, then runs aim at the next sample
  let warmup;
  while (done < total) {
    const next = Math.min(total, (Math.floor(done / every) + 1) * every);
    const seconds = Math.min(10, Math.max(1, (next - done) / rate));
    const r = await runWrk(server.url, script, { seconds, connections });
    // A few timeouts on an overloaded machine are not a memory problem; many mean a broken server.
    socketErrors += r.connectionErrors;
    if (r.connectionErrors > r.requests / 100) {
      throw new Error(`memory run: ${r.connectionErrors} socket errors in ${r.requests} requests`);
    }
    for (const [code, n] of Object.entries(r.statuses ?? {})) {
      if (!EXPECTED_STATUSES.has(code)) throw new Error(`memory run: ${n} answers of ${code}`);
      statuses[code] = (statuses[code] ?? 0) + n;
    }
    done += r.requests;
    rate = r.rps;
    if (done < next) continue;
    const endsWarmup = warmup === undefined && done >= total * 0.2;
    const marker = join(dir, "snapshot");
    if (process.env.MEMORY_SNAPSHOTS === "1" && (endsWarmup || done >= total)) {
      writeFileSync(marker, "");
    }
    samples.push(await sample(dir, server.pid, done));
    rmSync(marker, { force: true });
    if (endsWarmup) warmup = samples.length - 1;
    process.stderr.write(
      `  ${done.toLocaleString("en-US")} requests: rss ${samples.at(-1).rss.toFixed(1)} MiB\n`,
    );
  }
  return { samples, statuses, warmup, socketErrors };
}

function verdict(samples, warmupIndex) {
  const rss = growthAfter(samples, warmupIndex, "rss");
  const heap = growthAfter(samples, warmupIndex, "retained");
  const pct = (g) => `${g >= 0 ? "+" : ""}${(g * 100).toFixed(1)}%`;
  const met = rss <= 0.1 && heap <= 0.1;
  return `after the warm-up: resident set ${pct(rss)}, heap retained ${pct(heap)} (goal: at most +10% each): ${met ? "met" : "NOT met"}`;
}

function table(samples, label) {
  const lines = [
    `| ${label} | processes | resident set | V8 heap size | heap used | heap retained (after a full GC) |`,
    "|---|---|---|---|---|---|",
  ];
  for (const s of samples) {
    lines.push(
      `| ${s.requests.toLocaleString("en-US")} | ${s.processes} | ${s.rss.toFixed(1)} MiB | ${s.heapTotal.toFixed(1)} MiB | ${s.heapUsed.toFixed(1)} MiB | ${s.retained.toFixed(1)} MiB |`,
    );
  }
  return lines.join("\n");
}

/** The session cookie of a returning browser (the web app's first HTML answer). */
async function sessionCookie(url) {
  const first = await fetch(`${url}/widgets`, {
    headers: { Accept: HTML_ACCEPT, ...BEHIND_PROXY },
  });
  await first.text();
  return first.headers.getSetCookie()[0].split(";")[0];
}

export async function memory({ connections = 50 } = {}) {
  const total = Number(process.env.MEMORY_REQUESTS ?? 1_000_000);
  const every = Number(process.env.MEMORY_SAMPLE_EVERY ?? 50_000);
  const idleSeconds = Number(process.env.MEMORY_IDLE_SECONDS ?? 600);
  const apps = list(process.env.MEMORY_APPS, "web,api");
  const workerCounts = list(process.env.MEMORY_WORKERS, "1,2").map(Number);
  const dir = mkdtempSync(join(tmpdir(), "wisent-memory-"));
  const out = [
    total === 0
      ? "The idle phase only (MEMORY_REQUESTS=0)."
      : `${total.toLocaleString("en-US")} mixed requests${NODE_ARGS.length > 0 ? ` (servers run with ${NODE_ARGS.join(" ")})` : ""} (per 8: 3 JSON shows, a JSON list page, the HTML index (the API app: a fourth show), a JSON create, a 404, a 422), wrk -t1 -c${connections}, sampled every ${every.toLocaleString("en-US")}; warm-up: the first 20%.`,
  ];
  const widgets = makeWidgets(1000);
  try {
    // MEMORY_REQUESTS=0: the idle phase alone.
    for (const app of total > 0 ? apps : []) {
      for (const workers of workerCounts) {
        const { variant, server, probeDir, ids } = await startProbed(
          dir,
          `${app}-${workers}`,
          app,
          widgets,
          {
            args: workers > 1 ? ["--workers", String(workers)] : [],
            ready: workers > 1 ? new RegExp(`done\\s+${workers} workers`) : undefined,
          },
        );
        try {
          const cookie = app === "web" ? await sessionCookie(server.url) : undefined;
          const script = writeMixScript(dir, `${app}-mix`, mix(ids, cookie));
          process.stderr.write(`memory: ${variant.label}, ${workers} worker(s)\n`);
          const { samples, statuses, warmup, socketErrors } = await underLoad(
            probeDir,
            server,
            script,
            {
              total,
              every,
              connections,
            },
          );
          out.push(
            "",
            `#### ${variant.label}, ${workers === 1 ? "one process" : `--workers ${workers} (summed over the primary and its workers)`}`,
            "",
            table(samples, "requests answered"),
            "",
            `answers by status: ${JSON.stringify(statuses)}; socket errors and timeouts (wrk): ${socketErrors}`,
            "",
            verdict(samples, warmup),
            "",
            `V8's heap spaces (size/used MiB, before the sample's collection) at the end of the warm-up: ${samples[warmup].spaces}; at the end: ${samples.at(-1).spaces}`,
          );
          // A worker's snapshots under --workers (the primary, first, serves no request).
          const snapshots = [samples[warmup], samples.at(-1)].map((s) => s.snapshots.at(-1));
          if (snapshots.every(Boolean)) out.push("", heapDiff(snapshots[0], snapshots[1]));
        } finally {
          await server.stop();
        }
      }
    }
    if (idleSeconds > 0) out.push("", await idle(dir, apps, widgets, idleSeconds));
    return { table: out.join("\n") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The web or API app on its own SQLite file (`<dir>/<name>.sqlite`, seeded with `widgets`),
 * started with the memory probe recording into `<dir>/<name>`; `options` go to startVariant.
 */
async function startProbed(dir, name, app, widgets, options = {}) {
  const variant = variantNamed(app === "web" ? "wisent-web" : "wisent-api");
  const probeDir = join(dir, name);
  const file = join(dir, `${name}.sqlite`);
  const ids = await seedWidgets(`sqlite:${file}`, {
    app: app === "web" ? variant.app : apiApp(),
    widgets,
  });
  mkdirSync(probeDir, { recursive: true });
  const server = await startVariant(variant, {
    env: { ...variantEnv(file), MEMORY_PROBE_DIR: probeDir },
    nodeArgs: ["--import", PROBE, ...NODE_ARGS],
    ...options,
  });
  return { variant, server, probeDir, ids };
}

/** Each app, one process, started, asked a few requests, then left idle and sampled ten times. */
async function idle(dir, apps, widgets, seconds) {
  const servers = [];
  const out = [`#### Idle for ${seconds} s after 1,000 requests (one process each)`];
  try {
    for (const app of apps) {
      servers.push({ app, ...(await startProbed(dir, `idle-${app}`, app, widgets)) });
    }
    for (const s of servers) {
      const cookie = s.app === "web" ? await sessionCookie(s.server.url) : undefined;
      const requests = mix(s.ids, cookie).slice(0, 1000);
      for (const r of requests) {
        const res = await fetch(s.server.url + r.path, r);
        await res.arrayBuffer();
      }
      s.samples = [await sample(s.probeDir, s.server.pid, 0)];
    }
    for (let i = 1; i <= 10; i++) {
      await new Promise((r) => setTimeout(r, (seconds * 1000) / 10));
      for (const s of servers) {
        const at = await sample(s.probeDir, s.server.pid, 0);
        at.requests = Math.round((seconds * i) / 10);
        s.samples.push(at);
      }
    }
    for (const s of servers) {
      out.push("", `${s.variant.label}:`, "", table(s.samples, "seconds idle"), "");
      out.push(verdict(s.samples, 2));
    }
    return out.join("\n");
  } finally {
    for (const s of servers) await s.server.stop();
  }
}
