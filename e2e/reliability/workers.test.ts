// `wisent start --workers 2` on PostgreSQL: an API app made by the CLI (`wisent new shop --api`,
// `wisent g r widget title description:nulls.Text`) in a temp folder, migrated with its own
// `wisent migrate` into a throwaway database, served by two worker processes sharing one port.
// 200 creates sent at once from 4 client processes must leave exactly 200 rows. 127.0.0.1 only;
// skipped, saying why, when the shared PostgreSQL server does not answer.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type ServerProcess, startWisent, WISENT_CLI } from "../support/server.js";
import {
  postgresDatabase,
  sharedPostgresAvailable,
  type TestDatabase,
} from "./support/databases.js";
import { report } from "./support/figures.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const CLI = WISENT_CLI;
const CLIENTS = 4;
const PER_CLIENT = 50;
const CREATES = CLIENTS * PER_CLIENT;

const postgres = await sharedPostgresAvailable();
if (!postgres)
  console.warn("SKIPPING the `wisent start --workers 2` test: it needs PostgreSQL (see above)");

/** Runs the CLI in `cwd`; throws with its output unless it exits 0. */
function wisent(cwd: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(`wisent ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * One client process: `count` JSON creates sent at once (its own connections), each bounded by a
 * timeout; resolves with [status, id] per request.
 */
function client(url: string, n: number, count: number): Promise<[number, string | undefined][]> {
  const code = `
    const [url, n, count] = process.argv.slice(1);
    const replies = await Promise.all(Array.from({ length: Number(count) }, async (_, i) => {
      const res = await fetch(url + "/widgets", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ title: "parallel " + n + "-" + i, description: "client " + n }),
        signal: AbortSignal.timeout(20000),
      });
      const body = await res.json().catch(() => ({}));
      return [res.status, body.id];
    }));
    process.stdout.write(JSON.stringify(replies));`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", code, url, String(n), String(count)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", (status, signal) => {
      clearTimeout(timer);
      if (status === 0) resolve(JSON.parse(out));
      else reject(new Error(`client ${n} failed (${status ?? signal}): ${out}`));
    });
  });
}

/** The parent process id of `pid` (Linux /proc). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

describe.skipIf(!postgres)("`wisent start --workers 2` on PostgreSQL", () => {
  let dir: string;
  let db: TestDatabase;
  let server: ServerProcess;
  let url: string;
  let workers: number[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "wisent-workers-"));
    wisent(dir, ["new", "shop", "--api", "--dev", "--skip-install"]);
    const app = join(dir, "shop");
    // The repository's packages (wisent is a workspace link) stand in for `npm install`.
    symlinkSync(join(REPO, "node_modules"), join(app, "node_modules"));
    wisent(app, ["g", "r", "widget", "title", "description:nulls.Text"]);
    db = await postgresDatabase(undefined, false);
    expect(wisent(app, ["migrate"], { DATABASE_URL: db.url })).toMatch(
      /migrated\s+\d+_create_widgets/,
    );

    // The supervisor says when both workers listen; its line names their pids.
    const port = await freePort();
    server = await startWisent(app, {
      args: ["--workers", "2", "--port", String(port)],
      env: { GO_ENV: "test", NODE_ENV: "test", DATABASE_URL: db.url },
      ready: /done\s+2 workers \(pids (\d+), (\d+)\) on port (\d+)/,
      url: `http://127.0.0.1:${port}`,
      timeoutMs: 45_000,
    });
    workers = [Number(server.ready[1]), Number(server.ready[2])];
    url = server.url;
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`${CREATES} creates sent at once from ${CLIENTS} client processes leave exactly ${CREATES} rows`, async () => {
    // Two worker processes of the one supervisor, sharing the port.
    expect(workers[0]).not.toBe(workers[1]);
    for (const pid of workers) expect(parentOf(pid)).toBe(server.pid);
    // Each worker runs with V8's young generation capped (its memory levels off under load).
    for (const pid of workers) {
      expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toContain(
        "--max-semi-space-size=8",
      );
    }

    const replies = (
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(url, n, PER_CLIENT)))
    ).flat();
    const statuses: Record<number, number> = {};
    for (const [status] of replies) statuses[status] = (statuses[status] ?? 0) + 1;
    expect(statuses).toEqual({ 201: CREATES });

    const rows = await db.rows("widgets");
    expect(rows).toHaveLength(CREATES);
    const ids = new Set(rows.map((r) => r.id));
    expect(ids.size).toBe(CREATES);
    expect(ids).toEqual(new Set(replies.map(([, id]) => id)));
    const titles = new Set<string>();
    for (let n = 0; n < CLIENTS; n++)
      for (let i = 0; i < PER_CLIENT; i++) titles.add(`parallel ${n}-${i}`);
    expect(new Set(rows.map((r) => r.title))).toEqual(titles);

    // Neither worker died (a dead one would have been replaced under a new pid).
    for (const pid of workers) expect(parentOf(pid)).toBe(server.pid);
    expect(server.output()).not.toMatch(/died|failed to start/);
    report("wisent start --workers 2 (postgres)", {
      clients: CLIENTS,
      requests: CREATES,
      statuses,
      rows: rows.length,
      distinct_ids: ids.size,
      workers,
    });
  }, 60_000);

  it("SIGTERM stops both workers and the supervisor exits 0", async () => {
    expect((await server.stop()).code).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  }, 30_000);
});
