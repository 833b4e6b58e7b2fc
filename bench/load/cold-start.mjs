/**
 * Cold start: time from spawning `node src/server.mjs` to the first answered request (a JSON show),
 * for both Wisent apps on a seeded SQLite file, 5 runs each; plus `wisent routes` on
 * examples/shop when it exists. Goals: under 1 s and under 1.5 s.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onCore, SERVER_CORE } from "./lib/cpus.mjs";
import { spread } from "./lib/report.mjs";
import { seedWidgets } from "./lib/seed.mjs";
import { VARIANTS, variantEnv } from "./throughput.mjs";

const RUNS = 5;
const root = fileURLToPath(new URL("../../", import.meta.url));

async function firstAnswer(script, env, path) {
  const port = 4380;
  const [command, args] = onCore(SERVER_CORE, process.execPath, [script]);
  const started = performance.now();
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { Accept: "application/json" },
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`first answer was ${res.status}`);
        return performance.now() - started;
      } catch (error) {
        if (error.message.startsWith("first answer")) throw error;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  }
}

export async function coldStart() {
  const dir = mkdtempSync(join(tmpdir(), "wisent-cold-"));
  try {
    const file = join(dir, "app.sqlite");
    const ids = await seedWidgets(`sqlite:${file}`);
    const lines = ["| what | median (min-max) over 5 runs | goal |", "|---|---|---|"];
    for (const variant of VARIANTS.filter((v) => v.wisent)) {
      const times = [];
      for (let i = 0; i < RUNS; i++)
        times.push(await firstAnswer(variant.script, variantEnv(file), `/widgets/${ids[i]}`));
      const s = spread(times);
      lines.push(
        `| ${variant.label}: process start to first answered request | ${s.median.toFixed(0)} ms (${s.min.toFixed(0)}-${s.max.toFixed(0)}) | < 1000 ms ${s.median < 1000 ? "met" : "NOT met"} |`,
      );
    }
    const shop = join(root, "examples/shop");
    const cli = join(root, "packages/wisent/dist/cli/main.js");
    if (existsSync(join(shop, "src/app.ts")) && existsSync(cli)) {
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [cli, "routes"], { cwd: shop, encoding: "utf8" });
        if (r.status !== 0) throw new Error(`wisent routes failed: ${r.stderr}`);
        times.push(performance.now() - t0);
      }
      const s = spread(times);
      lines.push(
        `| \`wisent routes\` in examples/shop | ${s.median.toFixed(0)} ms (${s.min.toFixed(0)}-${s.max.toFixed(0)}) | < 1500 ms ${s.median < 1500 ? "met" : "NOT met"} |`,
      );
    } else {
      lines.push(
        "| `wisent routes` | not measured: examples/shop does not exist yet | < 1500 ms |",
      );
    }
    return { table: lines.join("\n") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
