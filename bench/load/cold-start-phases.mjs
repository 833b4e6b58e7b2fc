/**
 * Where a start's time goes: the main thread's CPU time in each step from spawn to the first 200
 * on GET /widgets, bare Hono against `wisent start` (the package's bin) in each Wisent app,
 * interleaved rounds, medians. CPU time rather than wall time: on a shared machine it is what
 * moves least. Steps (lib/start-phases-preload.cjs notes them):
 *
 *   boot           Node's own start, to the first line of the preload
 *   cli            the wisent CLI, to loading the app's dist/server.js (Wisent only)
 *   load           loading and running the server module, to its listen()
 *   wait           listening, to the first request (mostly idle)
 *   first request  the first request, to its answer
 *
 *   node bench/load/cold-start-phases.mjs      (ROUNDS=11 by default; after `npm run build`)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiApp, BIN, ROOT, SHOP, wisent } from "./lib/apps.mjs";
import { printStandalone } from "./lib/report.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import { freePort } from "./lib/servers.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 11);
const PRELOAD = fileURLToPath(new URL("./lib/start-phases-preload.cjs", import.meta.url));
const STEPS = ["boot", "cli", "load", "wait", "first request"];

/** The CPU milliseconds of each step of one start of `argv` in `cwd`, and their sum. */
async function phases(argv, cwd, env, file) {
  rmSync(file, { force: true });
  const port = await freePort();
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
      NODE_OPTIONS: `--require ${PRELOAD}`,
      START_PHASES_FILE: file,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${argv.join(" ")} exited: ${stderr}`);
      if (performance.now() - started > 30_000) throw new Error("no answer within 30 s");
      try {
        const res = await fetch(`http://127.0.0.1:${port}/widgets`, {
          headers: { Accept: "application/json", "X-Forwarded-Proto": "https" },
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`first answer was ${res.status}: ${stderr}`);
        break;
      } catch (error) {
        if (String(error.message).startsWith("first answer")) throw error;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
    while (!existsSync(file)) await new Promise((r) => setTimeout(r, 5));
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  }
  const steps = { cli: 0 };
  let before = 0;
  for (const [name, at] of JSON.parse(readFileSync(file, "utf8"))) {
    steps[name] = at - before;
    before = at;
  }
  steps.total = before;
  return steps;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function coldStartPhases() {
  const dir = mkdtempSync(join(tmpdir(), "wisent-phases-"));
  const hello = join(ROOT, "bench/load/apps", `.hono-hello-${process.pid}.mjs`);
  writeFileSync(
    hello,
    'import { serve } from "@hono/node-server";\nimport { Hono } from "hono";\n' +
      'const app = new Hono();\napp.get("/widgets", (c) => c.text("hello"));\n' +
      'serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });\n',
  );
  try {
    const servers = [{ label: "bare Hono", argv: [hello], cwd: ROOT, env: {} }];
    const widgets = makeWidgets();
    for (const [label, app] of [
      ["web app (examples/shop)", SHOP],
      ["API app (generated)", apiApp()],
    ]) {
      const db = join(dir, `${label.replace(/\W+/g, "-")}.sqlite`);
      await seedWidgets(`sqlite:${db}`, { app, widgets });
      wisent(app, ["build"]);
      const env = {
        GO_ENV: "production",
        DATABASE_URL: `sqlite:${db}`,
        SESSION_SECRET: "cold-start-bench-secret-of-at-least-32-characters",
      };
      servers.push({ label: `${label}, wisent start`, argv: [BIN, "start"], cwd: app, env });
    }
    const runs = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of servers.entries()) {
        runs[i].push(await phases(s.argv, s.cwd, s.env, join(dir, "phases.json")));
      }
    }
    const columns = [...STEPS, "total"];
    const lines = [
      `| main-thread CPU ms, median of ${ROUNDS} | ${columns.join(" | ")} | total / bare Hono's, round by round |`,
      `|---|${columns.map(() => "---:").join("|")}|---:|`,
    ];
    for (const [i, s] of servers.entries()) {
      const cells = columns.map((c) => median(runs[i].map((r) => r[c] ?? 0)).toFixed(1));
      const ratio = median(runs[i].map((r, round) => r.total / runs[0][round].total));
      lines.push(`| ${s.label} | ${cells.join(" | ")} | ${ratio.toFixed(2)}x |`);
    }
    return { table: lines.join("\n") };
  } finally {
    rmSync(hello, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await printStandalone(coldStartPhases);
