/**
 * Memory: resident set of one Wisent web app process (examples/shop under `wisent start`) after
 * 10,000 and after 100,000 requests (HTML show and index pages with a session cookie, rendered in
 * the layout). Goal: it grows by at most 10% (a leak grows; settling lower after the warm-up is fine).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedWidgets } from "./lib/seed.mjs";
import { residentMiB } from "./lib/servers.mjs";
import { runWrk, writeScript } from "./lib/wrk.mjs";
import { BEHIND_PROXY, startVariant, variantEnv, variantNamed, workloads } from "./throughput.mjs";

/** Runs the mixed script until `target` requests in total have been answered. */
async function loadUntil(server, script, done, target) {
  while (done < target) {
    const r = await runWrk(server.url, script, { seconds: 1, connections: 20 });
    if (r.errors > 0) throw new Error(`memory run: ${r.errors} errors`);
    done += r.requests;
  }
  return done;
}

export async function memory() {
  const dir = mkdtempSync(join(tmpdir(), "wisent-memory-"));
  const web = variantNamed("wisent-web");
  let server;
  try {
    const file = join(dir, "app.sqlite");
    const ids = await seedWidgets(`sqlite:${file}`);
    server = await startVariant(web, { env: variantEnv(file) });
    const first = await fetch(`${server.url}/widgets`, {
      headers: { Accept: "text/html", ...BEHIND_PROXY },
    });
    await first.text();
    const cookie = first.headers.getSetCookie()[0].split(";")[0];
    const [, , , , htmlShow] = workloads(ids, cookie);
    // A returning browser: show pages of 666 widgets and index pages 1-50 in turn.
    const mixed = [];
    for (let i = 0; i < 999; i++) {
      mixed.push(i % 3 === 2 ? `/widgets?page=${(i % 50) + 1}` : htmlShow.paths[i]);
    }
    const script = writeScript(dir, "mixed", { paths: mixed, headers: htmlShow.headers });
    let done = await loadUntil(server, script, 0, 10_000);
    const at10k = await residentMiB(server.pid);
    const n10k = done;
    done = await loadUntil(server, script, done, 100_000);
    const at100k = await residentMiB(server.pid);
    const growth = (at100k - at10k) / at10k;
    return {
      table: [
        "| requests answered | resident memory |",
        "|---|---|",
        `| ${n10k.toLocaleString("en-US")} | ${at10k.toFixed(1)} MiB |`,
        `| ${done.toLocaleString("en-US")} | ${at100k.toFixed(1)} MiB |`,
        "",
        `growth ${(growth * 100).toFixed(1)}% (goal: at most +10%, no leak): ${growth <= 0.1 ? "met" : "NOT met"}`,
      ].join("\n"),
    };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
