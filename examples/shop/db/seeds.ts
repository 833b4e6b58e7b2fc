import { db } from "../src/db.js";

/**
 * The rows a fresh database starts with: `wisent db seed` runs this, and `wisent db reset` after
 * migrating. Write it so that running it twice does no harm, e.g. with a generated Post model:
 *
 *   if ((await Post.query(db.kysely).limit(1).execute()).length === 0) {
 *     await Post.create(db.kysely, { title: "Hello" });
 *   }
 */
export default async function seed(): Promise<void> {
  // Fails at once, naming the database, when it cannot be reached.
  await db.check();
}
