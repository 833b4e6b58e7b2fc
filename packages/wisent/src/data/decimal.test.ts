import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";
import { Part, Widget } from "./test-support/widget.js";

const available = await availableDialects();

/**
 * Wisent's one behaviour for DECIMAL columns on every database: a JavaScript number, as the
 * generated model types say (PostgreSQL's NUMERIC parser and mysql2's `decimalNumbers` are set
 * in database.ts; SQLite stores them as numbers). Exact for values of up to 15 significant
 * digits, which `decimal(12, 2)`, the generator's default, always is.
 */
describe.each(DIALECTS)("decimal columns on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect]);

  it.skipIf(!available[dialect])("read back as numbers, in rows and in aggregates", async () => {
    const db = t.db.kysely;
    const widget = await Widget.create(db, { title: "Frame" });
    const prices = ["12.50", "0.10", "-3.25", "99999999.99"];
    for (const [i, price] of prices.entries()) {
      await Part.create(db, {
        widget_id: widget.id,
        name: `part ${i}`,
        in_stock: true,
        price,
        made_on: "2024-04-30",
      });
    }
    const parts = await Part.query(db).orderBy("name").execute();
    expect(parts.map((p) => p.price)).toEqual([12.5, 0.1, -3.25, 99999999.99]);
    for (const part of parts) expect(typeof part.price).toBe("number");
    const found = await Part.find(db, parts[0]!.id);
    expect(found.price).toBe(12.5);
    expect(JSON.parse(JSON.stringify(found)).price).toBe(12.5);

    // Aggregates too (SQLite adds in floating point, the servers exactly: sums of halves and
    // quarters agree everywhere).
    const { rows } = await sql<{ total: unknown; top: unknown; least: unknown }>`
      select sum(case when price in (12.5, -3.25) then price end) as total,
             max(price) as top, min(price) as least
      from parts`.execute(db);
    expect(rows[0]).toEqual({ total: 9.25, top: 99999999.99, least: -3.25 });
  });
});
