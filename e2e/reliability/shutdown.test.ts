// SIGTERM during load: in-flight requests finish, new connections are refused, exit code 0 and
// no request lost. `migrate` interrupted mid-way leaves the schema at a migration boundary.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "wisent/db";
import {
  postgresDatabase,
  sharedPostgresAvailable,
  sqliteDatabase,
  type TestDatabase,
} from "./support/databases.js";
import { report } from "./support/figures.js";
import { keepAliveAgent, sendJson } from "./support/http.js";
import { startShop } from "./support/shop.js";

const MIGRATE = fileURLToPath(new URL("./fixtures/migrate.mjs", import.meta.url));
const INTERRUPTED = fileURLToPath(new URL("./fixtures/interrupted-migrations", import.meta.url));
const postgres = await sharedPostgresAvailable();

function tryConnect(port: number): Promise<"connected" | "refused"> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", () => resolve("refused"));
  });
}

describe("SIGTERM during load", () => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });

  it("finishes in-flight requests, refuses new connections, exits 0 and loses no request", async () => {
    const db = await sqliteDatabase();
    dbs.push(db);
    const server = await startShop({
      databaseUrl: db.url,
      faults: true,
      drainTimeoutMs: 8000,
    });
    const outcomes = new Map<string, number | string>();
    const agent = keepAliveAgent(20);
    const create = async (title: string) => {
      try {
        const reply = await sendJson(server.url, "POST", "/widgets", { title }, agent);
        outcomes.set(title, reply.status);
      } catch (error) {
        outcomes.set(title, (error as NodeJS.ErrnoException).code ?? "error");
      }
    };
    // Slow requests that will be in flight when the signal arrives.
    const slowAnswers: (number | string)[] = [];
    const slow = Array.from({ length: 5 }, () =>
      sendJson(server.url, "POST", "/faults/slow?ms=1500", {}).then(
        (r) => slowAnswers.push(r.status),
        (e: NodeJS.ErrnoException) => slowAnswers.push(e.code ?? "error"),
      ),
    );
    // Steady load on 10 keep-alive connections until the server stops answering.
    let n = 0;
    let refusedSeen = false;
    const workers = Array.from({ length: 10 }, async () => {
      for (;;) {
        const title = `load ${n++}`;
        await create(title);
        if (outcomes.get(title) !== 201) return;
      }
    });
    await sleep(500);
    const doneBeforeSignal = [...outcomes.values()].filter((s) => s === 201).length;
    server.child.kill("SIGTERM");
    for (let i = 0; i < 50 && !refusedSeen; i++) {
      refusedSeen = (await tryConnect(server.port)) === "refused";
      if (!refusedSeen) await sleep(20);
    }
    const slowDoneWhenRefused = slowAnswers.length;
    const exit = await server.exited;
    await Promise.all([...slow, ...workers]);
    agent.destroy();

    expect(refusedSeen).toBe(true);
    expect(slowDoneWhenRefused).toBe(0);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(slowAnswers).toEqual([200, 200, 200, 200, 200]);
    const statuses: Record<string, number> = {};
    for (const s of outcomes.values()) statuses[s] = (statuses[s] ?? 0) + 1;
    // Only 201s, or a refused new connection once the server stopped accepting: no 5xx, no
    // reset connection. Whatever was not answered was never stored, and every 201 was.
    expect(Object.keys(statuses).filter((s) => !["201", "ECONNREFUSED"].includes(s))).toEqual([]);
    const stored = (await db.rows("widgets")).map((r) => String(r.title)).sort();
    const answered = [...outcomes]
      .filter(([, s]) => s === 201)
      .map(([t]) => t)
      .sort();
    expect(stored).toEqual(answered);
    report("SIGTERM during load", {
      requests: outcomes.size + slowAnswers.length,
      slow_in_flight: slowAnswers,
      answered_before_signal: doneBeforeSignal,
      statuses,
      rows: stored.length,
      exit,
    });
  }, 60_000);
});

describe.each([
  ["sqlite", true],
  ["postgres", postgres],
] as const)("migrate interrupted mid-way on %s", (dialect, available) => {
  it.skipIf(!available)(
    "leaves the schema at a migration boundary, and a re-run completes",
    async () => {
      const db =
        dialect === "sqlite"
          ? await sqliteDatabase(false)
          : await postgresDatabase(undefined, false);
      try {
        const child = spawn(process.execPath, [MIGRATE, INTERRUPTED], {
          env: { ...process.env, DATABASE_URL: db.url },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
        });
        child.stderr.on("data", (chunk) => {
          out += chunk;
        });
        const exited = new Promise((resolve) =>
          child.once("exit", (code, signal) => resolve({ code, signal })),
        );
        for (let i = 0; i < 300 && !out.includes('"halfway"'); i++) await sleep(20);
        expect(out).toContain('"halfway"');
        child.kill("SIGTERM");
        const exit = await exited;

        const state = async () => {
          const conn = await openDatabase(db.url, { poolSize: 1 });
          try {
            const tables = (await conn.kysely.introspection.getTables()).map((t) => t.name);
            const applied = tables.includes("wisent_migration")
              ? (
                  await sql<{
                    name: string;
                  }>`select name from wisent_migration order by name`.execute(conn.kysely)
                ).rows.map((r) => r.name)
              : [];
            return {
              tables: ["alphas", "betas", "gammas"].filter((t) => tables.includes(t)),
              applied,
            };
          } finally {
            await conn.close();
          }
        };
        const after = await state();
        // Each applied migration's table exists, and no table exists without its migration.
        const expectedTables = after.applied.map(
          (name) => /create_(\w+?)(_then_stall)?$/.exec(name)![1],
        );
        expect(after.tables).toEqual(expectedTables);

        const rerun = await new Promise<{ code: number | null; out: string }>((resolve) => {
          const again = spawn(process.execPath, [MIGRATE, INTERRUPTED], {
            env: { ...process.env, DATABASE_URL: db.url },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let text = "";
          again.stdout.on("data", (c) => {
            text += c;
          });
          again.stderr.on("data", (c) => {
            text += c;
          });
          // The stalling migration stalls again: interrupt once it is past its DDL.
          const timer = setInterval(() => {
            if (text.includes('"halfway"')) {
              clearInterval(timer);
              again.kill("SIGTERM");
            }
          }, 20);
          again.once("exit", (code) => {
            clearInterval(timer);
            resolve({ code, out: text });
          });
        });
        // The re-run got past every migration already applied and into the stalled one again
        // (it did not fail on a half-made table).
        expect(rerun.out).toContain('"halfway"');
        expect(rerun.out).not.toMatch(/already exists/);
        report(`migrate interrupted (${dialect})`, {
          exit,
          after,
          rerun_reached_stall_again: true,
        });
      } finally {
        await db.drop();
      }
    },
    60_000,
  );
});
