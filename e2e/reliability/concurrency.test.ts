// Load and concurrency: 500 concurrent JSON creates over 50 keep-alive connections, and
// concurrent updates of one widget, on SQLite, PostgreSQL and MySQL/MariaDB (throwaway databases
// on the shared servers; each skips, saying why, when its server does not answer).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../support/server.js";
import {
  mysqlDatabase,
  postgresDatabase,
  sharedMysqlAvailable,
  sharedPostgresAvailable,
  sqliteDatabase,
  type TestDatabase,
} from "./support/databases.js";
import { report, SOAK } from "./support/figures.js";
import { keepAliveAgent, type Reply, sendJson } from "./support/http.js";
import { startShop } from "./support/shop.js";

const CREATES = SOAK ? 5_000 : 500;
const CONNECTIONS = 50;
const UPDATES = SOAK ? 2_000 : 200;
const postgres = await sharedPostgresAvailable();
const mysql = await sharedMysqlAvailable();
const DATABASES = { sqlite: sqliteDatabase, postgres: postgresDatabase, mysql: mysqlDatabase };

describe.each([
  ["sqlite", true],
  ["postgres", postgres],
  ["mysql", mysql],
] as const)("concurrent writes on %s", (dialect, available) => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    if (!available) return;
    db = await DATABASES[dialect]();
    server = await startShop({ databaseUrl: db.url, env: { POOL_SIZE: "20" } });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it.skipIf(!available)(
    `${CREATES} concurrent JSON creates over ${CONNECTIONS} connections leave exactly ${CREATES} rows with distinct ids`,
    async () => {
      const agent = keepAliveAgent(CONNECTIONS);
      const sockets = new Set<unknown>();
      agent.on("free", (socket) => sockets.add(socket));
      const replies = await Promise.all(
        Array.from({ length: CREATES }, (_, i) =>
          sendJson(
            server.url,
            "POST",
            "/widgets",
            { title: `load ${i}`, description: `d${i}` },
            agent,
          ),
        ),
      );
      agent.destroy();
      const statuses = countBy(replies);
      expect(statuses).toEqual({ 201: CREATES });
      const created = replies.map((r) => JSON.parse(r.body) as { id: string; title: string });
      const rows = await db.rows("widgets");
      expect(rows).toHaveLength(CREATES);
      expect(new Set(rows.map((r) => r.id)).size).toBe(CREATES);
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(created.map((w) => w.id)));
      expect(new Set(rows.map((r) => r.title))).toEqual(
        new Set(Array.from({ length: CREATES }, (_, i) => `load ${i}`)),
      );
      expect(sockets.size).toBeLessThanOrEqual(CONNECTIONS);
      report(`concurrent creates (${dialect})`, {
        requests: CREATES,
        connections: sockets.size,
        statuses,
        rows: rows.length,
        distinct_ids: new Set(rows.map((r) => r.id)).size,
      });
    },
    SOAK ? 600_000 : 120_000,
  );

  it.skipIf(!available)(
    `${UPDATES} concurrent updates of one widget end with one of the written values, never a mix`,
    async () => {
      const created = await sendJson(server.url, "POST", "/widgets", { title: "contested" });
      const id = (JSON.parse(created.body) as { id: string }).id;
      const agent = keepAliveAgent(CONNECTIONS);
      const replies = await Promise.all(
        Array.from({ length: UPDATES }, (_, i) =>
          sendJson(
            server.url,
            "PUT",
            `/widgets/${id}`,
            { title: `title ${i}`, description: `description ${i}` },
            agent,
          ),
        ),
      );
      agent.destroy();
      expect(countBy(replies)).toEqual({ 200: UPDATES });
      const row = (await db.rows("widgets")).find((r) => r.id === id)!;
      const n = /^title (\d+)$/.exec(String(row.title))?.[1];
      expect(n).toBeDefined();
      expect(Number(n)).toBeLessThan(UPDATES);
      expect(row.description).toBe(`description ${n}`);
      // Every answer was one whole write too: its title and description carry the same number.
      for (const reply of replies) {
        const w = JSON.parse(reply.body) as { title: string; description: string };
        expect(w.description).toBe(w.title.replace("title", "description"));
      }
      report(`concurrent updates of one widget (${dialect})`, {
        requests: UPDATES,
        statuses: countBy(replies),
        final: { title: row.title, description: row.description },
      });
    },
    SOAK ? 600_000 : 60_000,
  );
});

function countBy(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
