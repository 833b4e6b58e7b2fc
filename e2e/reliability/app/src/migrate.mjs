// `wisent migrate` for the fixture: runs the migrations of a folder (default ../migrations)
// against DATABASE_URL and prints what ran.
import { fileURLToPath } from "node:url";
import { migrateUp, openDatabase } from "wisent";

const folder = process.argv[2] ?? fileURLToPath(new URL("../migrations", import.meta.url));
const db = await openDatabase(process.env.DATABASE_URL);
try {
  const ran = await migrateUp(db, folder);
  console.log(JSON.stringify({ msg: "migrated", ran }));
} finally {
  await db.close();
}
