/**
 * The cost of a live create in CPU instructions (run.mjs --instructions): the shop and its
 * not-live copy each under valgrind's callgrind, instrumentation off until a warm-up is done,
 * then counted over a fixed number of creates, so the count is the server's own work (its
 * threads, the garbage collector's included) and does not depend on what else the machine
 * runs (bench/load/ab-instructions.mjs does the same for two builds). Needs valgrind.
 */
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI } from "../load/lib/apps.mjs";
import { freePort, untilAnswering } from "../load/lib/servers.mjs";
import { sqliteDatabase, widgetStreamPath } from "./servers.mjs";

const WARMUP = 300;

/** Whether callgrind can be used here. */
export const hasCallgrind = () => !spawnSync("callgrind_control", ["--version"]).error;

/** Instructions a create of `app` costs, `creates` counted after the warm-up. */
async function perCreate(client, app, dir, name, { watch, creates }) {
  const port = await freePort();
  const out = join(dir, `callgrind-${name}`);
  const env = {
    ...process.env,
    NO_COLOR: "1",
    GO_ENV: "production",
    SESSION_SECRET: "live-bench-session-secret-".padEnd(64, "x"),
    DATABASE_URL: sqliteDatabase(dir, `instructions-${name}`),
    PORT: String(port),
    HOST: "127.0.0.1",
    TRUSTED_PROXIES: "127.0.0.1",
  };
  const server = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      "--smc-check=all-non-file",
      `--callgrind-out-file=${out}.%p`,
      process.execPath,
      CLI,
      "start",
    ],
    { cwd: app, env, stdio: "ignore" },
  );
  // callgrind_control by pid: without one it reaches every callgrind process of the user.
  const control = (args) => {
    const run = spawnSync("callgrind_control", [...args, String(server.pid)], { env });
    if (run.status !== 0) throw new Error(`callgrind_control ${args.join(" ")}: ${run.stderr}`);
  };
  const dumps = () =>
    readdirSync(dir)
      .map((f) => (f.startsWith(`callgrind-${name}.`) ? /\.\d+\.(\d+)$/.exec(f) : null))
      .filter(Boolean)
      .map((m) => ({ file: join(dir, m.input), n: Number(m[1]) }));
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilAnswering(url, server, () => name);
    if (watch) {
      const path = await widgetStreamPath(url);
      await client.call("open", { tag: `cg-${name}`, url, path, count: 1 });
    }
    await client.call("creates", { url, count: WARMUP, concurrency: 2, prefix: "warm" });
    control(["-d"]);
    const from = Math.max(0, ...dumps().map((d) => d.n));
    control(["-i", "on"]);
    await client.call("creates", { url, count: creates, concurrency: 2, prefix: "counted" });
    control(["-d"]);
    control(["-i", "off"]);
    let total = 0;
    for (const dump of dumps().filter((d) => d.n > from)) {
      total += Number(/^totals: (\d+)/m.exec(readFileSync(dump.file, "utf8"))?.[1] ?? 0);
    }
    return total / creates;
  } finally {
    if (watch) await client.call("close", { tag: `cg-${name}` });
    server.kill("SIGTERM");
    if (server.exitCode === null) await new Promise((r) => server.once("exit", r));
  }
}

/** The instructions table: not live, live with nobody watching, live with one watcher. */
export async function createInstructions(client, apps, dir, creates = 500) {
  const plain = await perCreate(client, apps.plain, dir, "plain", { creates });
  const live = await perCreate(client, apps.live, dir, "live", { creates });
  const watched = await perCreate(client, apps.live, dir, "watched", { watch: true, creates });
  const row = (name, count) =>
    `| ${name} | ${Math.round(count).toLocaleString("en-US")} | ${(count / plain).toFixed(3)}x |`;
  return [
    `Cost of a create in CPU instructions (callgrind, the server's own work, load-insensitive), ${creates} JSON creates 2 at a time after ${WARMUP} of warm-up, on SQLite:`,
    "",
    "| shop | instructions / create | ratio |",
    "|---|---:|---:|",
    row("not live", plain),
    row("live, nobody watching", live),
    row("live, one watcher", watched),
  ].join("\n");
}
