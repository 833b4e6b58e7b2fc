import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./database.js";
import { availableDialects } from "./test-support/test-databases.js";

const POSTGRES = process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { postgres } = await availableDialects();

// A request holds its connection between queries (its transaction); when the server goes away
// meanwhile, pg's client emits "error" with no query to fail. Unhandled, that event crashed the
// app's process (found by e2e/reliability/database-outage.test.ts, about 1 run in 10).
describe.skipIf(!postgres)("a PostgreSQL connection lost while checked out", () => {
  it("does not crash the process; the next query on it fails, the pool goes on", async () => {
    const db = await openDatabase(POSTGRES, { poolSize: 2 });
    const admin = await openDatabase(POSTGRES, { poolSize: 1 });
    const logged: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const failure = await db.kysely.connection().execute(async (conn) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(admin.kysely);
        // Idle on our side: the termination arrives as an "error" event, not a failed query.
        for (let i = 0; i < 50 && logged.length === 0; i++) await sleep(20);
        return sql`select 1`.execute(conn).then(
          () => undefined,
          (error: Error) => error.message,
        );
      });
      expect(failure).toMatch(/not queryable|terminat/i);
      expect(String(logged[0]?.[0])).toMatch(/^database connection error \(postgres:/);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      console.error = consoleError;
      await admin.close();
      await db.close();
    }
  });
});
