/**
 * Cold start, as a user starts things (unpinned, whole process, median of 5):
 *   - each Wisent app (the generated API app, examples/shop): from spawning `wisent start` in its
 *     folder to the first answered request (a JSON show) on its own seeded SQLite file; goal < 1 s;
 *   - `wisent routes` in examples/shop: from spawning it to its exit; goal < 1.5 s.
 * Both include Node's start, the CLI, tsx compiling the app's TypeScript (tsx keeps a transform
 * cache, so runs after the first reuse it) and loading the app's modules.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiApp, CLI, SHOP } from "./lib/apps.mjs";
import { spread } from "./lib/report.mjs";
import { makeWidgets, seedWidgets } from "./lib/seed.mjs";
import { freePort } from "./lib/servers.mjs";
import { variantEnv, WISENT_VARIANTS } from "./throughput.mjs";

const RUNS = 5;

/** Milliseconds from spawning `wisent start` in `app` to the first 200 on `path`. */
async function firstAnswer(app, env, path) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, "start"], {
    cwd: app,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`wisent start exited: ${stderr}`);
      if (performance.now() - started > 20_000) throw new Error("no answer within 20 s");
      let res;
      try {
        res = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { Accept: "application/json" },
        });
      } catch {
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`first answer was ${res.status}`);
      return performance.now() - started;
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  }
}

const row = (what, times, goal) => {
  const s = spread(times);
  return `| ${what} | ${s.median.toFixed(0)} ms (${s.min.toFixed(0)}-${s.max.toFixed(0)}) | < ${goal} ms: ${s.median < goal ? "met" : "NOT met"} |`;
};

export async function coldStart() {
  const dir = mkdtempSync(join(tmpdir(), "wisent-cold-"));
  try {
    apiApp();
    const widgets = makeWidgets();
    const lines = [`| what | median (min-max) over ${RUNS} runs | goal |`, "|---|---|---|"];
    for (const variant of WISENT_VARIANTS) {
      const file = join(dir, `${variant.name}.sqlite`);
      const ids = await seedWidgets(`sqlite:${file}`, { app: variant.app, widgets });
      const times = [];
      for (let i = 0; i < RUNS; i++)
        times.push(await firstAnswer(variant.app, variantEnv(file), `/widgets/${ids[i]}`));
      lines.push(
        row(`${variant.label}: \`wisent start\` to the first answered request`, times, 1000),
      );
    }
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [CLI, "routes"], {
        cwd: SHOP,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
      if (r.status !== 0) throw new Error(`wisent routes failed: ${r.stderr}`);
      times.push(performance.now() - t0);
    }
    lines.push(row("`wisent routes` in examples/shop (start to exit)", times, 1500));
    return { table: lines.join("\n") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
