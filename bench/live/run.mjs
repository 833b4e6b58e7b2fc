/**
 * Live pages bench (run `npm run build` first): examples/shop, whose widgets are `live: true`,
 * under `wisent start` in production; the subscribed streams and the writes in a client process
 * of their own (client.mjs), so a server's memory is its own and every time is read on one clock.
 * In one run:
 *   1. latency: a widget created with a JSON POST, the time until a subscriber's stream receives
 *      its `created` event (and the Turbo refresh, debounced 100 ms by design), beside the
 *      create's own answer; on one process (in memory), under `--workers 2` on SQLite (through
 *      the primary), and across two processes on one PostgreSQL database broadcasting over
 *      LISTEN/NOTIFY and over Redis pub/sub (a subscriber on the writing process and one on the
 *      other);
 *   2. memory: the server's resident set and heap (after a full collection) before and with
 *      1,000 idle subscribed streams (and 10,000 with --full), per stream;
 *   3. fan-out: one create, until the first and the last of 1,000 (10,000) subscribers has it;
 *   4. cost: CPU time and wall time per create of the live widgets against the same shop with
 *      `live: true` taken out, interleaved rounds, ratios round by round; on SQLite (nobody
 *      watching, and one watcher) and on PostgreSQL with the LISTEN/NOTIFY transport.
 *
 *   5. with --instructions, the cost of a create in CPU instructions under callgrind
 *      (instructions.mjs), the figure that holds on a busy machine.
 *
 *   node bench/live/run.mjs [--full] [--instructions] [--write] [--phases latency,memory,cost]
 *
 * --full adds 10,000 connections (raising the open-file limit to its hard limit for this run);
 * --write adds the run to bench/live/RESULTS.md. BENCH_ROUNDS (5), BENCH_CREATES (1000 a round),
 * LIVE_BENCH_WRITES (200 latency samples a variant) tune it.
 */
import { fork, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "../lib/measure.mjs";
import { createInstructions, hasCallgrind } from "./instructions.mjs";
import { benchRedis } from "./redis-server.mjs";
import {
  cpuNanoseconds,
  memoryOf,
  postgresDatabase,
  prepareApps,
  sqliteDatabase,
  startShop,
  widgetStreamPath,
} from "./servers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    full: { type: "boolean" },
    write: { type: "boolean" },
    instructions: { type: "boolean" },
    phases: { type: "string", default: "latency,memory,cost" },
  },
});
const phases = new Set(flags.phases.split(","));
const CONNECTIONS = flags.full ? [1_000, 10_000] : [1_000];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const WRITES = Number(process.env.LIVE_BENCH_WRITES ?? 200);
const MiB = 1024 * 1024;

/** Re-runs this bench with the open-file limit raised when 10,000 streams need more. */
function ensureFileLimit(needed) {
  const limits = readFileSync("/proc/self/limits", "utf8");
  const [, soft, hard] = /Max open files\s+(\S+)\s+(\S+)/.exec(limits) ?? [];
  const number = (v) => (v === "unlimited" ? Number.POSITIVE_INFINITY : Number(v));
  if (number(soft) >= needed) return;
  if (number(hard) < needed || process.env.LIVE_BENCH_RAISED) {
    console.error(`${needed} open files needed, the hard limit is ${hard}: raise it (ulimit -Hn)`);
    process.exit(2);
  }
  const run = spawnSync(
    "sh",
    ["-c", `ulimit -n ${hard} && exec "$0" "$@"`, process.execPath, ...process.argv.slice(1)],
    { stdio: "inherit", env: { ...process.env, LIVE_BENCH_RAISED: "1" } },
  );
  process.exit(run.status ?? 1);
}

/** The client process and a promise-returning call of its commands (see client.mjs). */
function startClient() {
  const child = fork(join(here, "client.mjs"), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let next = 0;
  const pending = new Map();
  child.on("message", ({ id, result, error }) => {
    const call = pending.get(id);
    pending.delete(id);
    if (error) call.reject(new Error(`client: ${error}`));
    else call.resolve(result);
  });
  child.on("exit", (code) => {
    for (const call of pending.values()) call.reject(new Error(`client exited (${code})`));
  });
  return {
    call: (cmd, args) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, ...args });
      }),
    stop: () => child.disconnect(),
  };
}

/** The nearest-rank percentile `p` of `values`. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (v) => `${v.toFixed(2)} ms`;
const range = (values, digits = 2) =>
  `${median(values).toFixed(digits)}x (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;

/** Starts `count` servers of `app` with `options`; stops them all when `work` ends. */
async function withServers(app, count, options, work) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await startShop(app, options));
    return await work(servers);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/**
 * Latency of the `created` event and of the refresh, from the write's sending, for each group
 * of subscribers; the create's own answer beside them.
 */
async function latency(client, apps, dir, pg, redis) {
  const variants = [
    { name: "one process, in memory (SQLite)", database: sqliteDatabase(dir, "latency-one") },
    {
      name: "`--workers 2`, through the primary (SQLite)",
      database: sqliteDatabase(dir, "latency-workers"),
      workers: 2,
    },
  ];
  if (pg) {
    variants.push({
      name: "two processes, PostgreSQL LISTEN/NOTIFY",
      database: pg.url,
      live: pg.url,
      two: true,
    });
    if (redis)
      variants.push({
        name: "two processes, Redis pub/sub",
        database: pg.url,
        live: redis.url,
        two: true,
      });
  }
  const rows = [];
  for (const [v, variant] of variants.entries()) {
    process.stderr.write(`latency: ${variant.name}\n`);
    await withServers(apps.live, variant.two ? 2 : 1, variant, async ([writer, other]) => {
      const path = await widgetStreamPath(writer.url);
      // Under --workers 2 the primary deals connections out in turn: of 4 streams, some are on
      // the worker that takes the writes and some on the other; "last" is the farther one.
      const groups = variant.two
        ? [
            { tag: `l${v}`, label: "on the writing process", url: writer.url, count: 1 },
            { tag: `r${v}`, label: "on the other process", url: other.url, count: 1 },
          ]
        : variant.workers
          ? [{ tag: `w${v}`, label: "last of 4 streams", url: writer.url, count: 4 }]
          : [{ tag: `o${v}`, label: "same process", url: writer.url, count: 1 }];
      for (const g of groups)
        await client.call("open", { tag: g.tag, url: g.url, path, count: g.count });
      const tags = groups.map((g) => g.tag);
      // Warm-up, so the first write's module loading and JIT do not count.
      await client.call("writes", { url: writer.url, tags, count: 20, prefix: `warm${v}` });
      const created = await client.call("writes", {
        url: writer.url,
        tags,
        count: WRITES,
        prefix: `lat${v}`,
      });
      await sleep(300); // the burst's debounced refresh has gone out
      const refresh = await client.call("writes", {
        url: writer.url,
        tags,
        count: 10,
        prefix: `ref${v}`,
        kind: "refresh",
        gapMs: 150,
      });
      for (const g of groups) await client.call("close", { tag: g.tag });
      const answers = created.map((s) => s.answer);
      for (const g of groups) {
        const events = created.map((s) => s.groups[g.tag].last);
        rows.push(
          `| ${variant.name} | ${g.label} | ${ms(percentile(events, 50))} | ${ms(percentile(events, 99))} | ${ms(percentile(answers, 50))} | ${ms(percentile(answers, 99))} | ${ms(
            percentile(
              refresh.map((s) => s.groups[g.tag].last),
              50,
            ),
          )} |`,
        );
      }
    });
  }
  return [
    `Latency, ${WRITES} creates one after another (after 20 of warm-up), from sending the POST:`,
    "",
    "| transport | subscriber | `created` event p50 | p99 | create answered p50 | p99 | refresh p50 (10, debounced 100 ms) |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

/** Memory per idle stream, and the fan-out of one create to all of them. */
async function memoryAndFanOut(client, apps, dir) {
  const probe = mkdtempSync(join(tmpdir(), "wisent-live-probe-"));
  try {
    return await withServers(
      apps.live,
      1,
      { database: sqliteDatabase(dir, "memory"), probe },
      async ([server]) => {
        const path = await widgetStreamPath(server.url);
        // Warm-up: streams opened, written to and closed, so code and pools are in place.
        await client.call("open", { tag: "warm", url: server.url, path, count: 100 });
        await client.call("writes", {
          url: server.url,
          tags: ["warm"],
          count: 20,
          prefix: "mwarm",
        });
        await client.call("close", { tag: "warm" });
        await sleep(1000);
        const before = await memoryOf(server.pid, probe);
        const memoryRows = [];
        const fanRows = [];
        let open = 0;
        const tags = [];
        for (const total of CONNECTIONS) {
          const tag = `m${total}`;
          tags.push(tag);
          await client.call("open", { tag, url: server.url, path, count: total - open });
          open = total;
          await sleep(2000);
          const after = await memoryOf(server.pid, probe);
          const per = (key) => ((after[key] - before[key]) / total / 1024).toFixed(1);
          memoryRows.push(
            `| ${total.toLocaleString("en-US")} | ${(before.rss / MiB).toFixed(1)} -> ${(after.rss / MiB).toFixed(1)} MiB | ${per("rss")} KiB | ${(before.retained / MiB).toFixed(1)} -> ${(after.retained / MiB).toFixed(1)} MiB | ${per("retained")} KiB |`,
          );
          // Writes spaced beyond the refresh's debounce, so each refresh goes out on its own.
          const writes = total > 1_000 ? 5 : 20;
          const cpuBefore = cpuNanoseconds(server.pid);
          const fan = await client.call("writes", {
            url: server.url,
            tags: [...tags],
            count: writes,
            prefix: `fan${total}`,
            gapMs: 250,
          });
          const cpu = (cpuNanoseconds(server.pid) - cpuBefore) / 1e6 / writes;
          const first = fan.map((s) => Math.min(...tags.map((t) => s.groups[t].first)));
          const last = fan.map((s) => Math.max(...tags.map((t) => s.groups[t].last)));
          const spread = fan.map((_, i) => last[i] - first[i]);
          fanRows.push(
            `| ${total.toLocaleString("en-US")} | ${writes} | ${ms(median(first))} | ${ms(median(last))} | ${ms(Math.max(...last))} | ${ms(median(spread))} | ${ms(median(fan.map((s) => s.answer)))} | ${ms(cpu)} |`,
          );
        }
        for (const tag of tags) await client.call("close", { tag });
        await sleep(2000);
        const closed = await memoryOf(server.pid, probe);
        return [
          "Memory of the server with idle subscribed streams (resident set, and heap after a full collection), per stream:",
          "",
          "| streams | resident set | per stream | heap | per stream |",
          "|---:|---|---:|---|---:|",
          ...memoryRows,
          "",
          `After closing them: resident set ${(closed.rss / MiB).toFixed(1)} MiB, heap ${(closed.retained / MiB).toFixed(1)} MiB.`,
          "",
          "Fan-out of one create to every stream, from sending the POST (medians over the writes, 250 ms apart); the server's CPU time a write counts its create, its `created` event and its refresh to every stream:",
          "",
          "| streams | writes | first has it | last has it | last, worst | first to last | create answered | server CPU a write |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|",
          ...fanRows,
        ].join("\n");
      },
    );
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * CPU and wall time per create, live against not live, interleaved rounds (the order turns each
 * round), ratios round by round.
 */
async function cost(client, apps, dir, pg) {
  const variants = [
    { name: "not live (SQLite)", app: apps.plain, database: sqliteDatabase(dir, "cost-plain") },
    {
      name: "live, nobody watching (SQLite)",
      app: apps.live,
      database: sqliteDatabase(dir, "cost-live"),
      base: 0,
    },
    {
      name: "live, one watcher (SQLite)",
      app: apps.live,
      database: sqliteDatabase(dir, "cost-watched"),
      watch: true,
      base: 0,
    },
  ];
  if (pg) {
    variants.push(
      { name: "not live (PostgreSQL)", app: apps.plain, database: pg.url },
      {
        name: "live, LISTEN/NOTIFY, one watcher (PostgreSQL)",
        app: apps.live,
        database: pg.url,
        live: pg.url,
        watch: true,
        base: 3,
      },
    );
  }
  try {
    for (const [i, v] of variants.entries()) {
      v.server = await startShop(v.app, v);
      if (v.watch) {
        const path = await widgetStreamPath(v.server.url);
        await client.call("open", { tag: `cost${i}`, url: v.server.url, path, count: 1 });
      }
      await client.call("creates", { url: v.server.url, count: 300, prefix: "warm" });
      v.cpu = [];
      v.wall = [];
    }
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`cost: round ${round + 1} of ${ROUNDS}\n`);
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + round) % variants.length];
        const cpuBefore = cpuNanoseconds(v.server.pid);
        const { ms: wall } = await client.call("creates", {
          url: v.server.url,
          count: CREATES,
          prefix: `r${round}`,
        });
        v.cpu.push((cpuNanoseconds(v.server.pid) - cpuBefore) / 1000 / CREATES);
        v.wall.push((wall * 1000) / CREATES);
      }
    }
  } finally {
    for (const [i] of variants.entries()) await client.call("close", { tag: `cost${i}` });
    await Promise.all(variants.map((v) => v.server?.stop()));
  }
  const rows = variants.map((v) => {
    const base = v.base === undefined ? undefined : variants[v.base];
    const ratio = (key) => (base ? range(v[key].map((value, r) => value / base[key][r])) : "");
    return `| ${v.name} | ${median(v.cpu).toFixed(0)} us | ${ratio("cpu")} | ${median(v.wall).toFixed(0)} us | ${Math.round(1e6 / median(v.wall))} | ${ratio("wall")} |`;
  });
  return [
    `Cost of a create, ${ROUNDS} interleaved rounds of ${CREATES} JSON creates, 4 at a time, after 300 of warm-up; the server's CPU time (all its threads) and the wall time a create, medians; ratios to the not-live shop on the same database, round by round, median (min-max):`,
    "",
    "| shop | CPU / create | CPU ratio | wall / create | creates/s | wall ratio |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}

function machine() {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: here,
    encoding: "utf8",
  }).stdout.trim();
  const dirty = spawnSync("git", ["status", "--porcelain", "packages/wisent/src"], {
    cwd: join(here, "../.."),
    encoding: "utf8",
  }).stdout.trim();
  return `${cpus().length} x ${cpus()[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, commit ${commit}${dirty ? " (with uncommitted changes to packages/wisent/src)" : ""}`;
}

/** Puts the run's section first among the recorded runs of RESULTS.md. */
function record(section) {
  const file = join(here, "RESULTS.md");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "# Results: Live pages\n\n";
  const at = text.indexOf("\n## ");
  writeFileSync(
    file,
    at === -1
      ? `${text.trimEnd()}\n\n${section}\n`
      : `${text.slice(0, at + 1)}${section}\n\n${text.slice(at + 1)}`,
  );
}

ensureFileLimit(Math.max(...CONNECTIONS) + 2_000);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const startedAt = new Date();
const loadBefore = load();
const apps = prepareApps();
const dir = mkdtempSync(join(tmpdir(), "wisent-live-bench-"));
const client = startClient();
const pg = await postgresDatabase();
const redis = pg && phases.has("latency") ? await benchRedis() : undefined;
const parts = [];
try {
  if (phases.has("latency")) parts.push(await latency(client, apps, dir, pg, redis));
  if (phases.has("memory")) parts.push(await memoryAndFanOut(client, apps, dir));
  if (phases.has("cost")) parts.push(await cost(client, apps, dir, pg));
  if (flags.instructions) {
    if (!hasCallgrind()) throw new Error("--instructions needs valgrind (callgrind_control)");
    parts.push(await createInstructions(client, apps, dir));
  }
} finally {
  client.stop();
  await redis?.stop();
  await pg?.drop();
  rmSync(dir, { recursive: true, force: true });
}
const notes = [
  !pg && "PostgreSQL not reachable: its variants were left out.",
  redis?.shared &&
    "Redis: the shared server (no redis-server on PATH); its channel may carry others' broadcasts.",
  pg && !redis && phases.has("latency") && "Redis not reachable: its variant was left out.",
].filter(Boolean);
const section = [
  `## ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `${machine()}; load average ${loadBefore} before, ${load()} after.${flags.full ? "" : " Default run (1,000 streams; --full adds 10,000)."}`,
  ...(notes.length ? ["", notes.join(" ")] : []),
  "",
  parts.join("\n\n"),
].join("\n");
console.log(`\n${section}`);
if (flags.write) record(section);
