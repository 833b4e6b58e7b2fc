/** Makes the widgets table (the app's own migration) and fills it with `rows` widgets, once per run. */
import { fileURLToPath } from "node:url";
import { migrateUp, openDatabase, uuidv7 } from "wisent";

export const MIGRATIONS = fileURLToPath(new URL("../apps/web/migrations", import.meta.url));

/** Seeds the database at `url`; returns the ids in creation order. */
export async function seedWidgets(url, rows = 10_000) {
  const db = await openDatabase(url);
  try {
    await migrateUp(db, MIGRATIONS);
    const ids = [];
    const start = Date.now() - rows;
    for (let from = 0; from < rows; from += 500) {
      const chunk = [];
      for (let i = from; i < Math.min(rows, from + 500); i++) {
        const at = new Date(start + i);
        const id = uuidv7(at.getTime());
        ids.push(id);
        chunk.push({
          id,
          title: `Widget ${i + 1}`,
          description: i % 3 === 0 ? null : `Description of widget ${i + 1}, a fine thing.`,
          created_at: at,
          updated_at: at,
        });
      }
      await db.kysely.insertInto("widgets").values(chunk).execute();
    }
    return ids;
  } finally {
    await db.close();
  }
}
