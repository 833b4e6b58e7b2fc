// The database goes away mid-run and comes back: requests answer 503 in the client's format,
// nothing is half-written, and the app recovers without a restart. On PostgreSQL and MariaDB, each
// a private server (initdb + pg_ctl, mariadb-install-db + mariadbd, on a free port), never the
// machine's shared ones; each skips, saying why, when it cannot be run here.
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "wisent/db";
import { freePort, type ServerProcess } from "../support/server.js";
import { migrate, PrivatePostgres, postgresBinaries } from "./support/databases.js";
import { report, SOAK } from "./support/figures.js";
import { keepAliveAgent, type Reply, send, sendJson } from "./support/http.js";
import { mariadbAvailable, PrivateMariaDb } from "./support/private-mariadb.js";
import { startShop } from "./support/shop.js";

const DB_PASSWORD = "outage-db-password-7f3a";
const OUTAGE_REQUESTS = SOAK ? 2_000 : 200;

/** A database server of the test's own, which it may stop and start. */
interface PrivateServer {
  /** The server's admin URL, or with a password (ignored by the server) and a database. */
  url(password?: string, database?: string): string;
  init(): void;
  start(): void | Promise<void>;
  stop(): void;
  destroy(): void;
}

const bin = postgresBinaries();
const SERVERS: [string, (() => Promise<PrivateServer>) | undefined][] = [
  [
    "PostgreSQL",
    bin
      ? async () => {
          const pg = new PrivatePostgres(bin, await freePort());
          return {
            url: (password, database = "postgres") =>
              pg.url(password).replace(/\/postgres$/, `/${database}`),
            init: () => pg.init(),
            start: () => pg.start(),
            stop: () => pg.stop(),
            destroy: () => pg.destroy(),
          };
        }
      : undefined,
  ],
  [
    "MySQL (MariaDB)",
    mariadbAvailable() ? async () => new PrivateMariaDb(await freePort()) : undefined,
  ],
];

describe.each(SERVERS)("%s stopped mid-run, then started again", (name, make) => {
  let database: PrivateServer;
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    if (!make) return;
    database = await make();
    database.init();
    await database.start();
    const admin = await openDatabase(database.url(), { poolSize: 1 });
    await sql`create database shop`.execute(admin.kysely);
    await admin.close();
    url = database.url(DB_PASSWORD, "shop");
    await migrate(url);
    server = await startShop({ databaseUrl: url, env: { POOL_SIZE: "5" } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    database?.destroy();
  });

  const titlesInDatabase = async () => {
    const db = await openDatabase(url, { poolSize: 1 });
    try {
      const rows = await db.kysely.selectFrom("widgets").select(["title", "description"]).execute();
      return rows as { title: string; description: string | null }[];
    } finally {
      await db.close();
    }
  };

  it.skipIf(!make)(
    "answers 503 in JSON, XML and HTML, loses or half-writes nothing, and recovers",
    async () => {
      const outcomes = new Map<string, number>();
      const agent = keepAliveAgent(10);
      const create = async (title: string) => {
        let reply: Reply;
        try {
          reply = await sendJson(
            server.url,
            "POST",
            "/widgets",
            { title, description: `of ${title}` },
            agent,
          );
        } catch {
          reply = { status: 0, headers: {}, body: "" };
        }
        outcomes.set(title, reply.status);
        return reply;
      };

      // Before: all good.
      for (let i = 0; i < 20; i++) expect((await create(`before ${i}`)).status).toBe(201);

      // Load running while the server goes away.
      let n = 0;
      let stopLoad = false;
      const load = (async () => {
        while (!stopLoad) await create(`during ${n++}`);
      })();
      const load2 = (async () => {
        while (!stopLoad) await create(`during ${n++}`);
      })();
      await sleep(50);
      database.stop();
      const stoppedAt = n;
      while (n < stoppedAt + OUTAGE_REQUESTS) await sleep(10);

      // Every format gets a clear 503.
      const json = await sendJson(server.url, "GET", "/widgets");
      expect(json.status).toBe(503);
      expect(JSON.parse(json.body)).toMatchObject({ code: 503 });
      expect(JSON.parse(json.body).error).toMatch(/^database unavailable/);
      const xml = await send(server.url, "/widgets.xml");
      expect(xml.status).toBe(503);
      expect(xml.body).toMatch(/<response code="503">\s*<error>database unavailable/);
      const html = await send(server.url, "/widgets/new");
      expect(html.status).toBe(200); // a page that needs no database still works
      const htmlList = await send(server.url, "/widgets");
      expect(htmlList.status).toBe(503);
      expect(htmlList.body).toContain("<h1>503 Service Unavailable</h1>");
      expect(htmlList.body).toContain("database unavailable");
      expect(json.headers["retry-after"]).toBeDefined();

      await database.start();
      // Back without restarting the app: the pool reconnects on its own.
      let recovered: Reply | undefined;
      for (let i = 0; i < 100; i++) {
        recovered = await sendJson(server.url, "GET", "/widgets?per_page=1");
        if (recovered.status === 200) break;
        await sleep(100);
      }
      stopLoad = true;
      await Promise.all([load, load2]);
      for (let i = 0; i < 20; i++) expect((await create(`after ${i}`)).status).toBe(201);
      agent.destroy();
      expect(recovered?.status).toBe(200);
      expect(server.child.exitCode).toBeNull();

      const statuses: Record<number, number> = {};
      for (const status of outcomes.values()) statuses[status] = (statuses[status] ?? 0) + 1;
      expect(Object.keys(statuses).sort()).toEqual(["201", "503"]);
      const rows = await titlesInDatabase();
      const answered201 = [...outcomes].filter(([, s]) => s === 201).map(([t]) => t);
      // Nothing lost, nothing extra, nothing half-written.
      expect(rows.map((r) => r.title).sort()).toEqual(answered201.sort());
      for (const row of rows) expect(row.description).toBe(`of ${row.title}`);
      // The database password never reaches the logs.
      expect(server.output()).not.toContain(DB_PASSWORD);
      report(`database outage (${name} stopped, started)`, {
        requests: outcomes.size,
        statuses,
        rows: rows.length,
        rows_without_201: rows.length - answered201.length,
        json_503: JSON.parse(json.body),
      });
    },
    120_000,
  );
});
