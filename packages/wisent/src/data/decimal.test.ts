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
 * Wisent's one behaviour for DECIMAL columns on every database: a model's `decimal(p, s)` field
 * is exact text with the column's scale (`"12.50"`), in the record, in JSON and after a read,
 * never a JavaScript number (PostgreSQL and mysql2 return the column's text, database.ts keeps
 * it; SQLite's numbers are formatted with the scale).
 */
describe.each(DIALECTS)("decimal columns on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect]);

  it.skipIf(!available[dialect])("read back as exact text with their scale", async () => {
    const db = t.db.kysely;
    const widget = await Widget.create(db, { title: "Frame" });
    const prices = ["12.5", 16, "0.10", -3.25, "99999999.99", "0"];
    for (const [i, price] of prices.entries()) {
      const part = await Part.create(db, {
        widget_id: widget.id,
        name: `part ${i}`,
        in_stock: true,
        price,
        made_on: "2024-04-30",
      });
      expect(typeof part.price).toBe("string");
    }
    const expected = ["12.50", "16.00", "0.10", "-3.25", "99999999.99", "0.00"];
    const parts = await Part.query(db).orderBy("name").execute();
    expect(parts.map((p) => p.price)).toEqual(expected);
    const found = await Part.find(db, parts[1]!.id);
    expect(found.price).toBe("16.00");
    expect(JSON.parse(JSON.stringify(found)).price).toBe("16.00");
    const page = await Part.paginate(db, { per_page: "10" });
    expect(page.rows.map((p) => p.price).sort()).toEqual([...expected].sort());
    const byWidget = await Part.byParent(db, "widget_id", [widget]);
    expect(byWidget.get(widget.id)?.map((p) => p.price)).toEqual(expected);
    const moved = await Part.update(db, found, { price: "17.5" });
    expect(moved.price).toBe("17.50");
    expect((await Part.find(db, found.id)).price).toBe("17.50");
  });

  it.skipIf(!available[dialect] || dialect === "sqlite")(
    "come from the server as exact text in raw queries too, aggregates included",
    async () => {
      const db = t.db.kysely;
      const widget = await Widget.create(db, { title: "Sums" });
      for (const [i, price] of ["0.10", "0.20"].entries()) {
        await Part.create(db, {
          widget_id: widget.id,
          name: `sum ${i}`,
          in_stock: true,
          price,
          made_on: "2024-04-30",
        });
      }
      const { rows } = await sql<{ total: unknown }>`
        select sum(price) as total from parts where widget_id = ${widget.id}`.execute(db);
      // 0.1 + 0.2 is 0.30000000000000004 in floating point; the server adds exactly.
      expect(String(rows[0]?.total)).toMatch(/^0\.30*$/);
      expect(typeof rows[0]?.total).toBe("string");
    },
  );
});
