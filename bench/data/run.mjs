/**
 * Data layer benchmark (run `npm run build` first): `show` (one row by id) and `list` (a page of
 * 20 rows plus the count) through Wisent's model API (Kysely) against the same SQL through the raw
 * driver, in the same process, interleaved rounds, medians. Goal: Kysely adds at most 20%.
 * SQLite always; PostgreSQL and MariaDB when reachable (WISENT_BENCH_POSTGRES_URL /
 * WISENT_BENCH_MYSQL_URL, defaults: the local test servers). Also shows SQLite through stock
 * Kysely (no statement cache) to measure the cache.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { defineModel } from "wisent";
import { migrateUp, openDatabase } from "wisent/db";
import { z } from "zod";
import { interleave, ns } from "../lib/measure.mjs";

const ROWS = 1000;
const MIGRATIONS = new URL("./migrations", import.meta.url).pathname;
const Widget = defineModel({
  table: "widgets",
  schema: z.object({
    title: z.string().trim().min(1),
    description: z.string().nullable().default(null),
  }),
});

async function seed(db) {
  await migrateUp(db, MIGRATIONS);
  const ids = [];
  const trx = await db.begin();
  for (let i = 0; i < ROWS; i++) {
    ids.push((await Widget.create(trx, { title: `widget ${i}`, description: "d" })).id);
  }
  await trx.commit().execute();
  return ids;
}

/**
 * Each variant's operations in turns of the event loop, `perTurn` a turn, as a server's requests
 * arrive: Wisent's SQLite reads of one turn share a read transaction, which a loop of awaits in
 * one turn would stretch over all its operations.
 */
function inTurns(variants, perTurn) {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  return Object.fromEntries(
    Object.entries(variants).map(([name, run]) => [
      name,
      async (it) => {
        for (let done = 0; done < it; done += perTurn) {
          await run(Math.min(perTurn, it - done));
          await nextTurn();
        }
      },
    ]),
  );
}

/** Runs show/list variants; `raw` gives { show(id), list() } over the driver itself. */
async function suite(label, db, ids, raw, extra = {}) {
  let n = 0;
  const nextId = () => ids[n++ % ids.length];
  const page = { page: "2", per_page: "20" };
  // Long runs and 11 rounds: one GC, a busy neighbour or a slow round trip to the server (they
  // range from 65 to 160 us on this machine) must not decide a median.
  const iterations = db.dialect === "sqlite" ? 20_000 : 2000;
  const rounds = 11;
  // SQLite: 10 operations a turn (see inTurns); a server's round trips are turns of their own.
  const turns = (variants) => (db.dialect === "sqlite" ? inTurns(variants, 10) : variants);
  const show = await interleave(
    turns({
      raw: async (it) => {
        for (let i = 0; i < it; i++) await raw.show(nextId());
      },
      wisent: async (it) => {
        for (let i = 0; i < it; i++) await Widget.find(db.kysely, nextId());
      },
      ...extra.show,
    }),
    { rounds, iterations },
  );
  const list = await interleave(
    turns({
      raw: async (it) => {
        for (let i = 0; i < it; i++) await raw.list();
      },
      wisent: async (it) => {
        for (let i = 0; i < it; i++) await Widget.paginate(db.kysely, page);
      },
      ...extra.list,
    }),
    { rounds, iterations: Math.max(100, iterations / 5) },
  );
  const rows = [];
  for (const [op, result] of [
    ["show", show],
    ["list-20", list],
  ]) {
    const base = result.raw.median;
    for (const [name, r] of Object.entries(result)) {
      const extraPct = name === "raw" ? "" : `${(((r.median - base) / base) * 100).toFixed(0)}%`;
      rows.push(`| ${label} | ${op} | ${name} | ${ns(r.median)} | ${extraPct} | ${ns(r.cpu)} |`);
    }
  }
  return rows;
}

const SHOW_SQL = {
  sqlite: 'select * from "widgets" where "id" = ?',
  postgres: 'select * from "widgets" where "id" = $1',
  mysql: "select * from `widgets` where `id` = ?",
};
const LIST_SQL = {
  sqlite: 'select * from "widgets" order by "id" limit ? offset ?',
  postgres: 'select * from "widgets" order by "id" limit $1 offset $2',
  mysql: "select * from `widgets` order by `id` limit ? offset ?",
};
const COUNT_SQL = {
  sqlite: 'select count(*) as "count" from "widgets"',
  postgres: 'select count(*) as "count" from "widgets"',
  mysql: "select count(*) as `count` from `widgets`",
};

const withDates = (row) => ({
  ...row,
  created_at: new Date(row.created_at),
  updated_at: new Date(row.updated_at),
});

async function sqliteRows() {
  const dir = await mkdtemp(join(tmpdir(), "wisent-bench-"));
  const file = join(dir, "bench.sqlite");
  const db = await openDatabase(`sqlite:${file}`);
  try {
    const ids = await seed(db);
    const driver = new BetterSqlite3(file);
    const show = driver.prepare(SHOW_SQL.sqlite);
    const list = driver.prepare(LIST_SQL.sqlite);
    const count = driver.prepare(COUNT_SQL.sqlite);
    // SQLite prepares a statement with a bound LIMIT again on every run; Wisent writes it in.
    const listLimitWritten = driver.prepare(LIST_SQL.sqlite.replace("limit ?", "limit 20"));
    const raw = {
      show: async (id) => show.get(id),
      list: async () => [list.all(20, 20), count.get()],
    };
    const stock = new Kysely({ dialect: new SqliteDialect({ database: new BetterSqlite3(file) }) });
    const begin = driver.prepare("begin");
    const commit = driver.prepare("commit");
    const rows = await suite("SQLite", db, ids, raw, {
      show: {
        "stock Kysely (no cache)": async (it) => {
          for (let i = 0; i < it; i++) await Widget.find(stock, ids[i % ids.length]);
        },
        // The raw read with the timestamps turned into Dates, as every Wisent record has them.
        "raw + Dates": async (it) => {
          for (let i = 0; i < it; i++) withDates(show.get(ids[i % ids.length]));
        },
        // A turn's reads in one transaction, as Wisent runs its reading requests' reads of a turn.
        "raw, a turn's 10 in one transaction": async (it) => {
          begin.run();
          for (let i = 0; i < it; i++) show.get(ids[i % ids.length]);
          commit.run();
        },
        // What a GET request runs: its transaction, the find, the commit.
        "raw, in begin/commit": async (it) => {
          for (let i = 0; i < it; i++) {
            begin.run();
            show.get(ids[i % ids.length]);
            commit.run();
          }
        },
        // As the transaction middleware runs it: begun and committed synchronously when the
        // connection is free (it always is here), the find awaited as a handler awaits it.
        "Wisent, in a request transaction": async (it) => {
          for (let i = 0; i < it; i++) {
            const tx =
              db.beginRequestNow({ write: false }) ?? (await db.beginRequest({ write: false }));
            await Widget.find(tx.trx, ids[i % ids.length]);
            tx.commitNow();
          }
        },
        "stock Kysely, in a controlled transaction": async (it) => {
          for (let i = 0; i < it; i++) {
            const trx = await stock.startTransaction().execute();
            await Widget.find(trx, ids[i % ids.length]);
            await trx.commit().execute();
          }
        },
      },
      list: {
        "raw + Dates": async (it) => {
          for (let i = 0; i < it; i++) [list.all(20, 20).map(withDates), count.get()];
        },
        "raw, LIMIT written in": async (it) => {
          for (let i = 0; i < it; i++) [listLimitWritten.all(20), count.get()];
        },
        "stock Kysely (no cache)": async (it) => {
          for (let i = 0; i < it; i++) await Widget.paginate(stock, { page: "2" });
        },
      },
    });
    await stock.destroy();
    driver.close();
    return rows;
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A GET's whole database work on PostgreSQL (the raw `show` row is the lone SELECT): the raw
 * driver's begin/select/commit, Wisent's request transaction as the middleware runs it for a
 * GET (`beginRequestNow ?? beginRequest`, `Widget.find`, `commit`), and Kysely's controlled
 * transaction, which every request transaction on PostgreSQL was before GETs read without one.
 */
function postgresTransactionShows(db, ids, client) {
  return {
    "raw, in begin/commit": async (it) => {
      for (let i = 0; i < it; i++) {
        await client.query("begin");
        await client.query(SHOW_SQL.postgres, [ids[i % ids.length]]);
        await client.query("commit");
      }
    },
    "Wisent, in a request transaction": async (it) => {
      for (let i = 0; i < it; i++) {
        const tx =
          db.beginRequestNow({ write: false }) ?? (await db.beginRequest({ write: false }));
        await Widget.find(tx.trx, ids[i % ids.length]);
        await tx.commit();
      }
    },
    "Wisent, in Kysely's controlled transaction": async (it) => {
      for (let i = 0; i < it; i++) {
        const trx = await db.begin();
        await Widget.find(trx, ids[i % ids.length]);
        await trx.commit().execute();
      }
    },
  };
}

/** A throwaway database on a server: created, benchmarked, dropped. */
async function serverRows(dialect, adminUrl) {
  let admin;
  try {
    admin = await openDatabase(adminUrl, { poolSize: 1 });
  } catch (error) {
    console.error(`skipping ${dialect}: ${error.message}`);
    return [];
  }
  const name = `wisent_bench_${Date.now()}`;
  await sql`create database ${sql.id(name)}`.execute(admin.kysely);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase(url.href, { poolSize: 1 });
  try {
    const ids = await seed(db);
    let raw;
    let close;
    if (dialect === "postgres") {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      raw = {
        client,
        // Unnamed queries, as Kysely's pg driver sends them.
        show: (id) => client.query(SHOW_SQL.postgres, [id]),
        list: async () => [
          await client.query(LIST_SQL.postgres, [20, 20]),
          await client.query(COUNT_SQL.postgres),
        ],
      };
      close = () => client.end();
    } else {
      const { createConnection } = await import("mysql2/promise");
      const conn = await createConnection({ uri: url.href });
      raw = {
        show: (id) => conn.query(SHOW_SQL.mysql, [id]),
        list: async () => [
          await conn.query(LIST_SQL.mysql, [20, 20]),
          await conn.query(COUNT_SQL.mysql),
        ],
      };
      close = () => conn.end();
    }
    const rows = await suite(
      dialect === "postgres" ? "PostgreSQL" : "MariaDB",
      db,
      ids,
      raw,
      dialect === "postgres" ? { show: postgresTransactionShows(db, ids, raw.client) } : {},
    );
    await close();
    return rows;
  } finally {
    await db.close();
    await sql`drop database ${sql.id(name)}`.execute(admin.kysely);
    await admin.close();
  }
}

// `node bench/data/run.mjs postgres` runs one database (sqlite, postgres, mysql); default all.
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);
const rows = [
  ...(wanted("sqlite") ? await sqliteRows() : []),
  ...(wanted("postgres")
    ? await serverRows(
        "postgres",
        process.env.WISENT_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
      )
    : []),
  ...(wanted("mysql")
    ? await serverRows(
        "mysql",
        process.env.WISENT_BENCH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test",
      )
    : []),
];
console.log(`Node ${process.version}, ${ROWS} widgets, medians of 11 interleaved rounds\n`);
console.log("| database | operation | variant | per op | vs raw | Node CPU per op |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
