import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addColumn, addIndex, dropColumn, dropIndex, renameColumn } from "./alter-table.js";
import { createTable } from "./create-table.js";
import {
  availableDialects,
  createTestDatabase,
  DIALECTS,
  type TestDatabase,
} from "./test-support/test-databases.js";

const available = await availableDialects();

describe.each(DIALECTS)("alter-table helpers on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!available[dialect]) return;
    t = await createTestDatabase(dialect);
    await createTable(t.db.kysely, "authors", (c) => {
      c.uuid("id").primary();
    });
    await createTable(t.db.kysely, "posts", (c) => {
      c.uuid("id").primary();
      c.string("title");
    });
    await t.db.kysely
      .insertInto("posts")
      .values({ id: "00000000-0000-4000-8000-000000000001", title: "First" })
      .execute();
  });
  afterAll(async () => {
    await t?.drop();
  });
  const run = it.skipIf(!available[dialect]);
  const columns = async (table: string) =>
    (await t.db.kysely.introspection.getTables())
      .find((x) => x.name === table)!
      .columns.map((c) => c.name)
      .sort();

  run("adds columns to a table with rows, nullable or with a default", async () => {
    await addColumn(t.db.kysely, "posts", (c) => {
      c.text("summary").nullable();
      c.integer("views").default(0);
      c.boolean("published").default(false);
    });
    expect(await columns("posts")).toEqual(["id", "published", "summary", "title", "views"]);
    const row = await t.db.kysely.selectFrom("posts").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ summary: null, views: 0, published: false });
  });

  run("renames a column, keeping its data", async () => {
    await renameColumn(t.db.kysely, "posts", "title", "headline");
    const row = await t.db.kysely.selectFrom("posts").select("headline").executeTakeFirstOrThrow();
    expect(row.headline).toBe("First");
    await renameColumn(t.db.kysely, "posts", "headline", "title");
  });

  run("adds and drops a unique index by its columns", async () => {
    await addIndex(t.db.kysely, "posts", "title", { unique: true });
    const dup = t.db.kysely
      .insertInto("posts")
      .values({ id: "00000000-0000-4000-8000-000000000002", title: "First" })
      .execute();
    await expect(dup).rejects.toThrow();
    await dropIndex(t.db.kysely, "posts", "title");
    await t.db.kysely
      .insertInto("posts")
      .values({ id: "00000000-0000-4000-8000-000000000003", title: "First" })
      .execute();
  });

  run("adds a reference with its foreign key and index, then drops columns", async () => {
    await addColumn(t.db.kysely, "posts", (c) => {
      c.references("author_id", "authors").nullable();
    });
    const orphan = t.db.kysely
      .updateTable("posts")
      .set({ author_id: "00000000-0000-4000-8000-0000000000ff" })
      .execute();
    await expect(orphan).rejects.toThrow();
    if (dialect === "mysql") {
      // MySQL refuses to drop a column or an index a foreign key uses until the constraint goes.
      await t.db.kysely.schema.alterTable("posts").dropConstraint("posts_author_id_fkey").execute();
    }
    await dropIndex(t.db.kysely, "posts", "author_id");
    await dropColumn(t.db.kysely, "posts", "author_id", "summary");
    expect(await columns("posts")).toEqual(["id", "published", "title", "views"]);
  });

  run("refuses an addColumn without columns", async () => {
    await expect(addColumn(t.db.kysely, "posts", () => {})).rejects.toThrow(
      'addColumn("posts"): no columns declared',
    );
  });
});
