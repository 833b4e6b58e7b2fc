/**
 * The CLI-generated API app's JSON show and list, in-process, from Hono's Node adapter calling the
 * app to the response being written: the real `getRequestListener` of @hono/node-server (as
 * `app.listen()` serves) with a stand-in IncomingMessage/ServerResponse pair, so no socket work.
 * The app is the generated one (securityHeaders, forceSSL (off), paramLogger, transaction on a
 * SQLite file; the generated `WidgetsResource`'s async `list` and `show`), written in plain JS.
 *
 * Prints, per request: microtask turns (promise reaction jobs, counted with async_hooks), promises
 * made, `Promise.prototype.then` calls, bytes allocated (V8 heap statistics over many requests),
 * and time (wall and CPU, interleaved rounds, medians).
 *
 * A/B in one process: `AB_BEFORE=<dir>` names an older build laid out by
 * bench/lib/baseline-build.mjs; `AB_AFTER=<dir>` takes the second build from such a folder too.
 *
 * Run: npm run build && node bench/http/api-server-path.mjs (COUNT_ONLY=1: the counts only;
 * node --max-semi-space-size=64 keeps collections out of the byte counts; WORKLOAD=show|list).
 */
import { createHook } from "node:async_hooks";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { getRequestListener } from "@hono/node-server";
import { importBuild } from "../lib/baseline-build.mjs";
import { interleave, median, ns } from "../lib/measure.mjs";
import { incomingFor, outgoingFor, serve } from "../lib/node-stand-ins.mjs";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const ROWS = 100;
const dir = mkdtempSync(join(tmpdir(), "wisent-api-path-"));

/** The generated API app, built on one copy of wisent (`w`) and hono's zod. */
async function apiApp(w, name) {
  const { z } = await import("zod");
  const file = join(dir, `${name}.sqlite`);
  const db = w.database(`sqlite:${file}`);
  await w.createTable(db.kysely, "widgets", (t) => {
    t.uuid("id").primary();
    t.string("title");
    t.text("description").nullable();
    t.timestamps();
  });
  const Widget = w.defineModel({
    table: "widgets",
    schema: z.object({
      title: z.string().trim().min(1).max(255),
      description: z.string().nullable().default(null),
    }),
  });
  const ids = [];
  for (let i = 0; i < ROWS; i++) {
    const widget = await Widget.create(db.kysely, {
      title: `Widget ${i}`,
      description: i % 2 ? null : `A fine widget, number ${i}.`,
    });
    ids.push(widget.id);
  }
  // As generated (src/actions/widgets.ts), in JS.
  class WidgetsResource extends w.Resource {
    async list(c) {
      const page = await Widget.paginate(await c.tx(), c.req.query());
      const { rows: widgets, paginator } = page;
      return c.respond(200, {
        json: widgets,
        xml: widgets,
        headers: w.paginationHeaders(paginator, c.req.url),
      });
    }
    async show(c) {
      const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
      return c.respond(200, { json: widget, xml: widget });
    }
  }
  const sink = { info: (e) => JSON.stringify(e), warn: () => {}, error: () => {} };
  const app = new w.App({ name: "shop", api: true, env: "development" });
  app.use(w.securityHeaders());
  app.use(w.forceSSL());
  app.use(w.paramLogger({ logger: sink }));
  app.use(w.transaction(db));
  app.get("/", (c) => c.json({ message: "Welcome to shop!" }));
  app.resource("/widgets", new WidgetsResource());
  return { app, ids, listener: getRequestListener(app.fetch) };
}

const variants = [];
const before = process.env.AB_BEFORE;
if (before) {
  const w = await importBuild(before);
  variants.push({ name: "before", ...(await apiApp(w, "before")) });
}
// AB_AFTER: the second build from a copy laid out the same way (default: this checkout's dist).
const after = process.env.AB_AFTER
  ? await importBuild(process.env.AB_AFTER)
  : await import("wisent");
variants.push({ name: before ? "after" : "current", ...(await apiApp(after, "now")) });

// Check each answers as expected.
for (const v of variants) {
  const show = await serve(v.listener, `/widgets/${v.ids[3]}`);
  const list = await serve(v.listener, "/widgets");
  if (show.status !== 200 || !String(show.body).includes(v.ids[3]))
    throw new Error(`${v.name}: show answered ${show.status} ${show.body}`);
  if (list.status !== 200 || JSON.parse(list.body).length !== 20)
    throw new Error(`${v.name}: list answered ${list.status}`);
  v.showHeaders = show.headers;
}

/** Microtask turns (promise reactions run), promises made and then() calls per request. */
async function countTurns(v, url, n = 200) {
  let turns = 0;
  let promises = 0;
  let thens = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
    before() {
      turns++;
    },
  });
  const then = Promise.prototype.then;
  const counts = { turns: 0, promises: 0, thens: 0 };
  for (let i = 0; i < n; i++) {
    await new Promise((resolveDone) => {
      const incoming = incomingFor(url);
      const outgoing = outgoingFor((out) => {
        // Counted up to the adapter's end(): what the request cost, not the harness's awaits.
        hook.disable();
        // biome-ignore lint/suspicious/noThenProperty: restoring the original then
        Promise.prototype.then = then;
        counts.turns += turns;
        counts.promises += promises;
        counts.thens += thens;
        resolveDone(out);
      });
      turns = 0;
      promises = 0;
      thens = 0;
      // biome-ignore lint/suspicious/noThenProperty: counting then() calls, restored at end()
      Promise.prototype.then = function countedThen(...args) {
        thens++;
        return then.apply(this, args);
      };
      hook.enable();
      v.listener(incoming, outgoing);
    });
    // Let the adapter's own promise chain after end() settle, uncounted.
    await new Promise((r) => setImmediate(r));
  }
  return { turns: counts.turns / n, promises: counts.promises / n, thens: counts.thens / n };
}

/** Collections seen so far (the observer's entries arrive after a macrotask turn). */
let collections = 0;
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ["gc"] });
const settleTurn = () => new Promise((r) => setTimeout(r, 0));

/**
 * Bytes allocated per request: heap growth over short runs of `n` requests, keeping only the
 * runs no collection happened in; the median of them.
 */
async function bytesPerRequest(v, url, n = Number(process.env.BYTES_BATCH ?? 40)) {
  const kept = [];
  for (let r = 0; r < 60 && kept.length < 15; r++) {
    await settleTurn();
    const seen = collections;
    const used0 = process.memoryUsage().heapUsed;
    for (let i = 0; i < n; i++) await serve(v.listener, url);
    const used1 = process.memoryUsage().heapUsed;
    await settleTurn();
    await settleTurn();
    if (collections === seen && used1 > used0) kept.push((used1 - used0) / n);
  }
  return kept.length ? median(kept) : Number.NaN;
}

/**
 * `PROFILE_ALLOC=show|list`: a sampling heap profile of the last variant's requests instead of
 * the tables: bytes allocated per request by allocating function (young objects included).
 */
async function profileAllocations(v, url, n = 20_000) {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  for (let i = 0; i < 2000; i++) await serve(v.listener, url);
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 64,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < n; i++) await serve(v.listener, url);
  const { profile } = await session.post("HeapProfiler.stopSampling");
  const bySite = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const frame = node.callFrame;
    const here = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(node_modules|dist|bench)\//, "$1/")}:${frame.lineNumber + 1}`;
    const self = node.selfSize;
    if (self > 0) {
      total += self;
      const key = `${here}  <- ${stack
        .slice(-Number(process.env.DEPTH ?? 2))
        .reverse()
        .join(" <- ")}`;
      bySite.set(key, (bySite.get(key) ?? 0) + self);
    }
    for (const child of node.children) walk(child, [...stack, frame.functionName || "(anon)"]);
  };
  walk(profile.head, []);
  console.log(`${Math.round(total / n)} B a request sampled over ${n} requests\n`);
  for (const [site, bytes] of [...bySite]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.TOP ?? 40))) {
    console.log(`${String(Math.round(bytes / n)).padStart(6)} B  ${site}`);
  }
}

if (process.env.PROFILE_ALLOC) {
  const v = variants.at(-1);
  await profileAllocations(
    v,
    process.env.PROFILE_ALLOC === "list" ? "/widgets" : `/widgets/${v.ids[7]}`,
  );
  process.exit(0);
}

const workloads = [
  { name: "show", url: (v, i) => `/widgets/${v.ids[i % ROWS]}` },
  { name: "list", url: () => "/widgets" },
].filter((w) => !process.env.WORKLOAD || w.name === process.env.WORKLOAD);

console.log(`node ${process.version}`);
console.log(
  "\n| workload | variant | microtask turns | promises made | then() calls | bytes allocated |",
);
console.log("|---|---|---|---|---|---|");
for (const wl of workloads) {
  for (const v of variants) {
    const c = await countTurns(v, wl.url(v, 7));
    const bytes = await bytesPerRequest(v, wl.url(v, 7));
    console.log(
      `| ${wl.name} | ${v.name} | ${c.turns.toFixed(1)} | ${c.promises.toFixed(1)} | ${c.thens.toFixed(1)} | ${Number.isNaN(bytes) ? "?" : `${Math.round(bytes)} B`} |`,
    );
  }
}

if (process.env.COUNT_ONLY) process.exit(0);

const timed = {};
for (const wl of workloads) {
  for (const v of variants) {
    timed[`${wl.name} ${v.name}`] = async (n) => {
      for (let i = 0; i < n; i++) await serve(v.listener, wl.url(v, i));
    };
  }
}
const results = await interleave(timed, { rounds: ROUNDS, iterations: ITERATIONS, collect: false });
console.log(
  `\n${ROUNDS} interleaved rounds x ${ITERATIONS} requests, medians per request (min-max wall)\n`,
);
console.log("| variant | wall | CPU |");
console.log("|---|---|---|");
for (const [name, r] of Object.entries(results)) {
  console.log(`| ${name} | ${ns(r.median)} (${ns(r.min)}-${ns(r.max)}) | ${ns(r.cpu)} |`);
}
rmSync(dir, { recursive: true, force: true });
process.exit(0);
