import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database.js";
import { StoredDate } from "./stored-date.js";
import { availableDialects } from "./test-support/test-databases.js";

const POSTGRES = process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { postgres } = await availableDialects();

/** Instants around the edges of what PostgreSQL prints: fractions, leap days, odd offsets. */
const INSTANTS = [
  "2024-05-01 12:34:56.789123+00",
  "2024-05-01 12:34:56+00",
  "2000-02-29 23:59:59.999999+00",
  "2024-03-10 10:00:00.5+00",
  "1900-01-01 00:00:00+00",
  "1000-01-01 12:00:00+00",
  "9999-12-31 12:00:00.001+00",
  "0099-06-01 00:00:00+00",
];

describe.skipIf(!postgres)("timestamps read from PostgreSQL", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(POSTGRES, { poolSize: 1 });
  });
  afterAll(() => db.close());

  // Monrovia's offset in 1900 was -00:44:30: PostgreSQL prints seconds in the offset.
  it.each(["UTC", "Asia/Kolkata", "America/Los_Angeles", "Asia/Kathmandu", "Africa/Monrovia"])(
    "are the instants the server holds, in time zone %s",
    async (zone) => {
      const rows = await db.kysely.connection().execute(async (conn) => {
        await sql`select set_config('TimeZone', ${zone}, false)`.execute(conn);
        const { rows } = await sql<{ at: Date; text: string; millis: string }>`
          select v as at, v::text as text, floor(extract(epoch from v) * 1000)::text as millis
          from unnest(${INSTANTS}::timestamptz[]) as v`.execute(conn);
        await sql`reset "TimeZone"`.execute(conn);
        return rows;
      });
      for (const row of rows) {
        expect([row.text, row.at.getTime()]).toEqual([row.text, Number(row.millis)]);
        expect(row.at).toBeInstanceOf(StoredDate);
      }
    },
  );

  it("keeps infinity as pg reads it", async () => {
    const { rows } = await sql<{ at: unknown }>`select 'infinity'::timestamptz as at`.execute(
      db.kysely,
    );
    expect(rows[0]?.at).toBe(Number.POSITIVE_INFINITY);
  });
});
