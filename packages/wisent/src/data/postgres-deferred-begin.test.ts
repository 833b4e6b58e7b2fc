import { type Generated, type Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openDatabase } from "./database.js";
import { deferredBeginClient, discardHeldBegin } from "./postgres-deferred-begin.js";
import { recordPgStatements } from "./test-support/pg-statements.js";
import { availableDialects } from "./test-support/test-databases.js";

const POSTGRES = process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { postgres } = await availableDialects();
const TABLE = `deferred_begin_${process.pid}`;

type Notes = Record<string, { id: Generated<number>; body: string }>;

describe.skipIf(!postgres)(
  "a PostgreSQL transaction's BEGIN goes out with its first statement",
  () => {
    let db: Database;
    let kysely: Kysely<Notes>;
    /** Another pool: what other connections see. */
    let other: Database;

    const count = async (body: string) => {
      const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(TABLE)}
      where body = ${body}`.execute(other.kysely);
      return Number(rows[0]?.n);
    };
    const insert = (trx: Kysely<Notes>, body: string) =>
      trx.insertInto(TABLE).values({ body }).returning("id").executeTakeFirstOrThrow();

    beforeAll(async () => {
      db = await openDatabase(POSTGRES, { poolSize: 2 });
      other = await openDatabase(POSTGRES, { poolSize: 1 });
      kysely = db.kysely as unknown as Kysely<Notes>;
      await sql`create table ${sql.table(TABLE)} (id serial primary key, body text unique)`.execute(
        db.kysely,
      );
    });
    afterAll(async () => {
      await sql`drop table if exists ${sql.table(TABLE)}`.execute(db.kysely);
      await other.close();
      await db.close();
    });
    afterEach(() => vi.restoreAllMocks());

    it("a create is two round trips: BEGIN with INSERT, then COMMIT", async () => {
      const { statements, roundTrips } = recordPgStatements();
      await kysely.transaction().execute(async (trx) => {
        await insert(trx, "two trips");
        // Inside the transaction: another connection does not see the row yet.
        expect(await count("two trips")).toBe(0);
      });
      const ours = roundTrips.filter((trip) => !trip.some((s) => s.includes("count(*)")));
      expect(ours.map((trip) => trip.map((s) => s.split(" ")[0]))).toEqual([
        ["begin", "insert"],
        ["commit"],
      ]);
      expect(statements.filter((s) => s === "begin")).toHaveLength(1);
      expect(await count("two trips")).toBe(1);
    });

    it("a rollback undoes the statement BEGIN went out with", async () => {
      await expect(
        kysely.transaction().execute(async (trx) => {
          await insert(trx, "rolled back");
          throw new Error("the handler failed");
        }),
      ).rejects.toThrow("the handler failed");
      expect(await count("rolled back")).toBe(0);
    });

    it("a failing first statement leaves a transaction to roll back, and the connection usable", async () => {
      await insert(kysely, "taken");
      await expect(
        kysely.transaction().execute((trx) => insert(trx, "taken")),
      ).rejects.toMatchObject({ code: "E_UNIQUE_VIOLATION" });
      // Both pooled connections work, each statement the first of its own transaction.
      const fresh = () =>
        kysely.connection().execute(async (conn) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          const { rows } = await sql<{ fresh: boolean }>`select
          statement_timestamp() = transaction_timestamp() as fresh`.execute(conn);
          return rows[0]?.fresh;
        });
      expect(await Promise.all([fresh(), fresh()])).toEqual([true, true]);
      await kysely.transaction().execute((trx) => insert(trx, "after the failure"));
      expect(await count("after the failure")).toBe(1);
    });

    it("a transaction with no statement sends nothing", async () => {
      const { roundTrips } = recordPgStatements();
      await kysely.transaction().execute(async () => {});
      await expect(
        kysely.transaction().execute(async () => {
          throw new Error("nothing ran");
        }),
      ).rejects.toThrow("nothing ran");
      expect(roundTrips).toEqual([]);
    });

    it("a first statement without parameters waits for a BEGIN of its own, in the same transaction", async () => {
      const { roundTrips } = recordPgStatements();
      const [first, second] = await kysely.transaction().execute(async (trx) => {
        const a = await sql<{ x: string }>`select txid_current()::text as x`.execute(trx);
        const b = await sql<{ x: string }>`select txid_current()::text as x`.execute(trx);
        return [a.rows[0]?.x, b.rows[0]?.x];
      });
      // One transaction: the same transaction id both times.
      expect(first).toBe(second);
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" ")[0]))).toEqual([
        ["begin"],
        ["select"],
        ["select"],
        ["commit"],
      ]);
    });

    it("a client given back to the pool owing a BEGIN starts clean", async () => {
      const pool = new pg.Pool({
        connectionString: POSTGRES,
        max: 1,
        Client: deferredBeginClient(pg),
      });
      pool.on("release", (_error, client) => discardHeldBegin(client));
      try {
        const first = await pool.connect();
        await first.query("begin");
        first.release(); // a transaction abandoned before its first statement
        const second = await pool.connect();
        await second.query(`insert into ${TABLE} (body) values ($1)`, ["after a release"]);
        second.release();
        // Committed on its own: no BEGIN was carried over to it.
        expect(await count("after a release")).toBe(1);
      } finally {
        await pool.end();
      }
    });
  },
);
