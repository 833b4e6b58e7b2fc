import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
  type Transaction,
} from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AnyDB } from "./any-db.js";
import type { Database } from "./database.js";
import { forgetLargeLists } from "./pagination.js";
import { configurePagination } from "./pagination-settings.js";
import { PooledRequestTransaction } from "./pooled-request-transaction.js";
import { recordPgStatements } from "./test-support/pg-statements.js";
import {
  availableDialects,
  createTestDatabase,
  migratedTestDatabase,
  type TestDatabase,
} from "./test-support/test-databases.js";
import { Part, Widget } from "./test-support/widget.js";
import { TRANSACTION_FINISHED } from "./transaction-handle.js";
import { uuidv7 } from "./uuid.js";

const available = (await availableDialects()).postgres;
const run = it.skipIf(!available);

/** Connections taken from and given back to the pool through Kysely's PostgreSQL driver. */
function countConnections() {
  const acquire = vi.spyOn(PostgresDriver.prototype, "acquireConnection");
  const release = vi.spyOn(PostgresDriver.prototype, "releaseConnection");
  return {
    get taken() {
      return acquire.mock.calls.length;
    },
    get returned() {
      return release.mock.calls.length;
    },
  };
}

const PROBE =
  "select xact_start < query_start as earlier from pg_stat_activity where query like '%wisent probe%'";

/**
 * Whether the statement runs in a transaction begun before it: in autocommit each statement is
 * its own transaction, which starts with it. (The server's view of its own session, found by
 * its text: a function call such as pg_backend_pid() would make the probe count as a write.)
 */
async function inEarlierTransaction(trx: Transaction<AnyDB>): Promise<boolean> {
  const { rows } = await sql<{ earlier: boolean }>`${sql.raw(PROBE)}`.execute(trx);
  expect(rows).toHaveLength(1);
  return rows[0]!.earlier;
}

const insert = (title: string) =>
  sql`insert into widgets (id, title, created_at, updated_at)
    values (${uuidv7()}, ${title}, now(), now())`;

/** A part of a widget that does not exist: the model lets it through, the foreign key refuses it. */
const orphanPart = (trx: Transaction<AnyDB>) =>
  Part.create(trx, {
    widget_id: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
    name: "Orphan",
    in_stock: true,
    price: "1.00",
    made_on: "2026-01-01",
  });

const titles = async (db: Database) =>
  (await Widget.all(db.kysely)).map((widget) => widget.title).sort();

describe("reading requests on PostgreSQL under READ COMMITTED", () => {
  const t = migratedTestDatabase("postgres", available, { poolSize: 3 });
  let seeded: string;
  beforeEach(async () => {
    if (!available) return;
    seeded = (await Widget.create(t.db.kysely, { title: "Seeded" })).id;
    // The isolation level is read with the first reading request: not inside the counts below.
    await (await t.db.beginRequest({ write: false })).commit();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    if (available) await t.db.kysely.deleteFrom("widgets").execute();
  });

  run("run a find alone: one statement, no BEGIN or COMMIT, one connection", async () => {
    const sent = recordPgStatements().statements;
    const pool = countConnections();
    const tx = t.db.beginRequestNow({ write: false });
    expect(tx).toBeInstanceOf(PooledRequestTransaction);
    expect(pool.taken).toBe(0); // not before the first query
    expect((await Widget.find(tx!.trx, seeded)).title).toBe("Seeded");
    expect(await inEarlierTransaction(tx!.trx)).toBe(false);
    await tx!.commit();
    expect(sent).toEqual(['select * from "widgets" where "id" = $1', PROBE]);
    expect([pool.taken, pool.returned]).toEqual([1, 1]);
  });

  run("list past the count limit without a transaction, asking the estimate once", async () => {
    const saved = configurePagination({ countLimit: 2 });
    try {
      forgetLargeLists();
      for (const title of ["Two", "Three", "Four"]) await Widget.create(t.db.kysely, { title });
      const sent = recordPgStatements().statements;
      const tx = t.db.beginRequestNow({ write: false });
      const { paginator } = await Widget.paginate(tx!.trx, { per_page: "2" });
      await tx!.commit();
      expect(paginator.total_entries_estimated).toBe(true);
      // The page, the capped count, and the planner's estimate (EXPLAIN plans, never runs).
      expect(sent.map((s) => s.split(" ")[0])).toEqual(["select", "select", "explain"]);
      // Seen past the limit, the next list asks the estimate first, and only once whatever it
      // says (the capped count follows when the estimate is not well past the limit).
      sent.length = 0;
      const next = t.db.beginRequestNow({ write: false });
      await Widget.paginate(next!.trx, { per_page: "2" });
      await next!.commit();
      expect(sent.filter((s) => s.startsWith("explain"))).toHaveLength(1);
      expect(sent.filter((s) => /^(begin|commit)/.test(s))).toEqual([]);
    } finally {
      configurePagination(saved);
      forgetLargeLists();
    }
  });

  run("see another connection's commit between two reads", async () => {
    const tx = await t.db.beginRequest({ write: false });
    expect((await Widget.all(tx.trx)).length).toBe(1);
    await Widget.create(t.db.kysely, { title: "Other" });
    expect((await Widget.all(tx.trx)).length).toBe(2);
    await tx.commit();
  });

  run("begin the transaction at the first write, which then holds every query", async () => {
    const sent = recordPgStatements().statements;
    const pool = countConnections();
    const tx = await t.db.beginRequest({ write: false });
    await Widget.find(tx.trx, seeded);
    await Widget.create(tx.trx, { title: "Unsaved" });
    expect(await inEarlierTransaction(tx.trx)).toBe(true);
    // Another connection does not see the row; the request's own reads do.
    expect(await titles(t.db)).toEqual(["Seeded"]);
    expect((await Widget.all(tx.trx)).map((w) => w.title).sort()).toEqual(["Seeded", "Unsaved"]);
    await tx.rollback();
    expect(await titles(t.db)).toEqual(["Seeded"]);
    const request = sent.slice(0, sent.indexOf("rollback") + 1);
    expect(request.map((s) => s.split(" ")[0])).toEqual([
      "select",
      // The first write begins the transaction; no savepoint (undoing it is a ROLLBACK).
      "begin",
      "insert",
      "select",
      "select", // Widget.all through another connection
      "select",
      "rollback",
    ]);
    expect(pool.taken).toBe(pool.returned);
  });

  run("commit a write with COMMIT", async () => {
    const sent = recordPgStatements().statements;
    const tx = await t.db.beginRequest({ write: false });
    await Widget.create(tx.trx, { title: "Saved" });
    await tx.commit();
    expect(sent.map((s) => s.split(" ")[0])).toEqual(["begin", "insert", "commit"]);
    expect(await titles(t.db)).toEqual(["Saved", "Seeded"]);
  });

  run("put a second write in a savepoint: a refused one keeps the first", async () => {
    const sent = recordPgStatements().statements;
    const tx = await t.db.beginRequest({ write: true });
    await Widget.create(tx.trx, { title: "First" });
    // The database refuses it (its foreign key); the model rethrows.
    await expect(orphanPart(tx.trx)).rejects.toThrow();
    await Widget.create(tx.trx, { title: "Third" });
    await tx.commit();
    expect(sent.map((s) => s.split(" ")[0])).toEqual([
      "begin",
      "insert",
      "savepoint",
      "insert",
      "rollback", // to the savepoint
      "savepoint",
      "insert",
      "release",
      "commit",
    ]);
    expect(await titles(t.db)).toEqual(["First", "Seeded", "Third"]);
  });

  run(
    "undo a refused first write by ending its transaction, and go on reading and writing",
    async () => {
      const sent = recordPgStatements().statements;
      const pool = countConnections();
      const tx = await t.db.beginRequest({ write: true });
      await expect(orphanPart(tx.trx)).rejects.toThrow();
      // Usable: the read runs on its own again (no transaction is open), and a later write
      // begins a new transaction, which commits.
      expect(await inEarlierTransaction(tx.trx)).toBe(false);
      expect((await Widget.all(tx.trx)).map((w) => w.title)).toEqual(["Seeded"]);
      await Widget.create(tx.trx, { title: "After" });
      await tx.commit();
      expect(sent.slice(0, 3).map((s) => s.split(" ")[0])).toEqual(["begin", "insert", "rollback"]);
      expect(sent.slice(-3).map((s) => s.split(" ")[0])).toEqual(["begin", "insert", "commit"]);
      // One connection for the request, given back.
      expect([pool.taken, pool.returned]).toEqual([1, 1]);
      expect(await titles(t.db)).toEqual(["After", "Seeded"]);
    },
  );

  run("after a refused first write, end the request with nothing to commit", async () => {
    const sent = recordPgStatements().statements;
    const tx = await t.db.beginRequest({ write: true });
    await expect(orphanPart(tx.trx)).rejects.toThrow();
    await tx.commit();
    expect(sent.map((s) => s.split(" ")[0])).toEqual(["begin", "insert", "rollback"]);
    expect(await titles(t.db)).toEqual(["Seeded"]);
  });

  run("keep the order of queries made at once around the BEGIN", async () => {
    const tx = await t.db.beginRequest({ write: false });
    const count = async () =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from widgets`.execute(tx.trx)).rows[0]!.n,
      );
    // Made in this order without waiting: the read after the write runs after it, in the
    // transaction the write began.
    const [before, , after] = await Promise.all([count(), insert("Made").execute(tx.trx), count()]);
    expect([before, after]).toEqual([1, 2]);
    await tx.rollback();
    expect(await titles(t.db)).toEqual(["Seeded"]);
  });

  run("commit the write of a query made before the commit and not awaited", async () => {
    // Made while the connection is being taken, and once it is held.
    for (const [title, readFirst] of [
      ["Late", false],
      ["Later", true],
    ] as const) {
      const tx = await t.db.beginRequest({ write: false });
      if (readFirst) await Widget.find(tx.trx, seeded);
      const made = insert(title).execute(tx.trx);
      await tx.commit();
      await made;
    }
    expect(await titles(t.db)).toEqual(["Late", "Later", "Seeded"]);
  });

  run("give the connection back once on every path", async () => {
    const pool = countConnections();
    const ends: [string, (tx: Awaited<ReturnType<Database["beginRequest"]>>) => Promise<void>][] = [
      ["never queried, commit", (tx) => tx.commit()],
      ["never queried, rollback", (tx) => tx.rollback()],
      [
        "a read, rollback",
        async (tx) => {
          await Widget.find(tx.trx, seeded);
          await tx.rollback();
        },
      ],
      [
        "a failed read, commit",
        async (tx) => {
          await expect(sql`select * from no_such_table`.execute(tx.trx)).rejects.toThrow(
            "no_such_table",
          );
          await tx.commit();
        },
      ],
      [
        "a failed write, rollback",
        async (tx) => {
          await expect(sql`insert into no_such_table values (1)`.execute(tx.trx)).rejects.toThrow(
            "no_such_table",
          );
          await tx.rollback();
        },
      ],
      [
        "a write, commit",
        async (tx) => {
          await Widget.create(tx.trx, { title: "Kept" });
          await tx.commit();
        },
      ],
    ];
    for (const [name, end] of ends) {
      const before = [pool.taken, pool.returned];
      await end(await t.db.beginRequest({ write: false }));
      const queried = !name.startsWith("never");
      expect([name, pool.taken - before[0]!, pool.returned - before[1]!]).toEqual([
        name,
        queried ? 1 : 0,
        queried ? 1 : 0,
      ]);
    }
    expect(await titles(t.db)).toEqual(["Kept", "Seeded"]);
  });

  run("roll back a failed COMMIT and give the connection back once", async () => {
    await sql`create table if not exists deferred_unique (n int unique deferrable initially deferred)`.execute(
      t.db.kysely,
    );
    const pool = countConnections();
    const tx = await t.db.beginRequest({ write: false });
    await sql`insert into deferred_unique values (1), (1)`.execute(tx.trx);
    await expect(tx.commit()).rejects.toThrow("deferred_unique");
    // Ended: the rollback the middleware sends next is refused, the connection is already back.
    await expect(tx.rollback()).rejects.toThrow(TRANSACTION_FINISHED);
    expect([pool.taken, pool.returned]).toEqual([1, 1]);
    const { rows } = await sql`select * from deferred_unique`.execute(t.db.kysely);
    expect(rows).toEqual([]);
  });

  run("refuse queries and a second end once ended", async () => {
    const tx = await t.db.beginRequest({ write: false });
    await Widget.find(tx.trx, seeded);
    await tx.commit();
    await expect(Widget.find(tx.trx, seeded)).rejects.toThrow(TRANSACTION_FINISHED);
    await expect(Widget.create(tx.trx, { title: "Late" })).rejects.toThrow(TRANSACTION_FINISHED);
    await expect(tx.commit()).rejects.toThrow(TRANSACTION_FINISHED);
    await expect(tx.rollback()).rejects.toThrow(TRANSACTION_FINISHED);
  });

  run("run a writing request's reads before its first write on their own", async () => {
    const sent = recordPgStatements().statements;
    const tx = t.db.beginRequestNow({ write: true });
    expect(tx).toBeInstanceOf(PooledRequestTransaction);
    await Widget.find(tx!.trx, seeded);
    await Widget.create(tx!.trx, { title: "Written" });
    await tx!.commit();
    expect(sent.map((s) => s.split(" ")[0])).toEqual(["select", "begin", "insert", "commit"]);
  });
});

describe("the isolation level of reading requests on PostgreSQL", () => {
  let made: TestDatabase | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await made?.drop();
    made = undefined;
  });

  run("is read once per database", async () => {
    made = await createTestDatabase("postgres");
    const sent = recordPgStatements().statements;
    const db = made.db;
    expect(db.beginRequestNow({ write: false })).toBeUndefined(); // not known yet
    const [first, second] = await Promise.all([
      db.beginRequest({ write: false }),
      db.beginRequest({ write: false }),
    ]);
    await first.commit();
    await second.commit();
    await (
      db.beginRequestNow({ write: false }) ?? (await db.beginRequest({ write: false }))
    ).commit();
    expect(sent).toEqual(["show default_transaction_isolation"]);
  });

  run("under REPEATABLE READ keeps Kysely's controlled transaction", async () => {
    made = await createTestDatabase("postgres", {
      settings: { default_transaction_isolation: "repeatable read" },
    });
    const db = made.db;
    await sql`create table t (n int)`.execute(db.kysely);
    const sent = recordPgStatements().statements;
    const tx = await db.beginRequest({ write: false });
    expect(tx).not.toBeInstanceOf(PooledRequestTransaction);
    expect(db.beginRequestNow({ write: false })).toBeUndefined();
    // (count(*) is an int8, which reads back as a number when it is exact.)
    const count = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from t`.execute(tx.trx)).rows[0]!.n);
    expect(await count()).toBe(0);
    await sql`insert into t values (1)`.execute(db.kysely);
    // One snapshot from the first read: the other connection's commit stays unseen.
    expect(await count()).toBe(0);
    await tx.commit();
    expect(sent.filter((s) => s === "begin" || s === "commit")).toEqual(["begin", "commit"]);
  });
});

/** A pooled driver without a server: it records what it is asked, and fails on demand. */
function fakeDriver() {
  const log: string[] = [];
  const fail = { acquire: false, begin: false };
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      log.push(query.sql);
      if (fail.begin && query.sql === "begin") throw new Error("begin failed");
      return { rows: [] };
    },
    async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
      log.push(`stream ${query.sql}`);
      yield { rows: [] };
    },
  };
  const driver: Driver = {
    init: async () => {},
    async acquireConnection() {
      log.push("acquire");
      if (fail.acquire) throw new Error("pool exhausted");
      return connection;
    },
    beginTransaction: (c) => c.executeQuery(CompiledQuery.raw("begin")).then(() => {}),
    commitTransaction: (c) => c.executeQuery(CompiledQuery.raw("commit")).then(() => {}),
    rollbackTransaction: (c) => c.executeQuery(CompiledQuery.raw("rollback")).then(() => {}),
    async releaseConnection() {
      log.push("release");
    },
    destroy: async () => {},
  };
  const dialect: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  const kysely = new Kysely<AnyDB>({ dialect });
  const begin = () => new PooledRequestTransaction(kysely, dialect, driver);
  return { log, fail, begin };
}

describe("a reading request's pooled transaction (no server)", () => {
  it("streams a select alone and begins before streaming a write", async () => {
    const { log, begin } = fakeDriver();
    const tx = begin();
    const drain = async (query: { stream(): AsyncIterable<unknown> }) => {
      for await (const _ of query.stream()) {
      }
    };
    await drain(tx.trx.selectFrom("widgets").selectAll());
    await drain(tx.trx.deleteFrom("widgets").returningAll());
    await tx.commit();
    expect(log).toEqual([
      "acquire",
      'stream select * from "widgets"',
      "begin",
      'stream delete from "widgets" returning *',
      "commit",
      "release",
    ]);
  });

  it("asks the pool again after a failed acquisition, and gives back what it got", async () => {
    const { log, fail, begin } = fakeDriver();
    const tx = begin();
    fail.acquire = true;
    await expect(sql`select 1`.execute(tx.trx)).rejects.toThrow("pool exhausted");
    fail.acquire = false;
    await sql`select 2`.execute(tx.trx);
    await tx.rollback();
    expect(log).toEqual(["acquire", "acquire", "select 2", "release"]);
  });

  it("ends after a query still waiting for its connection", async () => {
    const { log, begin } = fakeDriver();
    const tx = begin();
    const read = sql`select 1`.execute(tx.trx);
    await tx.rollback();
    await read;
    expect(log).toEqual(["acquire", "select 1", "release"]);
  });

  it("fails the queries after a failed BEGIN, and its commit, but gives the connection back", async () => {
    const { log, fail, begin } = fakeDriver();
    const tx = begin();
    fail.begin = true;
    await expect(sql`update t set n = 1`.execute(tx.trx)).rejects.toThrow("begin failed");
    await expect(sql`select 1`.execute(tx.trx)).rejects.toThrow("begin failed");
    await expect(tx.commit()).rejects.toThrow("begin failed");
    await expect(tx.rollback()).rejects.toThrow(TRANSACTION_FINISHED);
    expect(log).toEqual(["acquire", "begin", "rollback", "release"]);
  });

  it("refuses queries made after the end began, even while it waits", async () => {
    const { log, begin } = fakeDriver();
    const tx = begin();
    await sql`select 1`.execute(tx.trx);
    const ending = tx.commit();
    await expect(sql`select 2`.execute(tx.trx)).rejects.toThrow(TRANSACTION_FINISHED);
    await ending;
    expect(log).toEqual(["acquire", "select 1", "release"]);
  });
});
