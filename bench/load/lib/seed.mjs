/**
 * Makes the widgets table with an app's own migrations (`wisent migrate` in the app's folder) and
 * fills it with widgets, once per run. Every database of a run gets the same rows (same ids).
 */
import { sql } from "kysely";
import { openDatabase, uuidv7 } from "wisent/db";
import { migrateApp, SHOP } from "./apps.mjs";

/** `rows` widgets (ids, titles, a description on two of three, timestamps a millisecond apart). */
export function makeWidgets(rows = 10_000) {
  const start = Date.now() - rows;
  const widgets = [];
  for (let i = 0; i < rows; i++) {
    const at = new Date(start + i);
    widgets.push({
      id: uuidv7(at.getTime()),
      title: `Widget ${i + 1}`,
      description: i % 3 === 0 ? null : `Description of widget ${i + 1}, a fine thing.`,
      created_at: at,
      updated_at: at,
    });
  }
  return widgets;
}

/**
 * Migrates the database at `url` with `app`'s migrations (examples/shop's by default) and inserts
 * `widgets` (or 10,000 new ones), then analyzes a PostgreSQL table; returns the ids in creation
 * order.
 */
export async function seedWidgets(url, { app = SHOP, widgets = makeWidgets() } = {}) {
  migrateApp(app, url);
  const db = await openDatabase(url);
  try {
    for (let from = 0; from < widgets.length; from += 500) {
      await db.kysely
        .insertInto("widgets")
        .values(widgets.slice(from, from + 500))
        .execute();
    }
    // Statistics as autovacuum keeps them for a PostgreSQL table in service (it has not met
    // this one yet): the planner's estimate is what a long list's total comes from.
    if (!url.startsWith("sqlite:")) await sql`analyze widgets`.execute(db.kysely);
    return widgets.map((w) => w.id);
  } finally {
    await db.close();
  }
}
