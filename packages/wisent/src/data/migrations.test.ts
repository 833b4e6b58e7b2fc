import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDown, migrateUp, migrationFileName, migrationStatus } from "./migrations.js";
import {
  availableDialects,
  createTestDatabase,
  DIALECTS,
  type TestDatabase,
} from "./test-support/test-databases.js";
import { MIGRATIONS } from "./test-support/widget.js";

const available = await availableDialects();
const WIDGETS = "20240101000000_create_widgets";
const PARTS = "20240102000000_create_parts";

describe("migrationFileName", () => {
  it("stamps the name with the UTC time", () => {
    expect(migrationFileName("create_widgets", new Date("2024-05-01T12:30:09.999Z"))).toBe(
      "20240501123009_create_widgets.ts",
    );
  });
  it("refuses names that are not snake_case", () => {
    expect(() => migrationFileName("Create Widgets")).toThrow(
      /invalid migration name "Create Widgets"/,
    );
  });
});

describe.each(DIALECTS)("migrations on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (available[dialect]) t = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await t?.drop();
  });
  const run = it.skipIf(!available[dialect]);
  const tables = async () =>
    (await t.db.kysely.introspection.getTables())
      .map((table) => table.name)
      .filter((name) => !name.startsWith("wisent_migration"))
      .sort();

  run("round-trips up, status, down --step and up again", async () => {
    expect(await migrationStatus(t.db, MIGRATIONS)).toEqual([
      { name: WIDGETS, applied: false },
      { name: PARTS, applied: false },
    ]);
    expect(await migrateUp(t.db, MIGRATIONS)).toEqual([WIDGETS, PARTS]);
    expect(await tables()).toEqual(["parts", "widgets"]);
    const status = await migrationStatus(t.db, MIGRATIONS);
    expect(status.map((m) => [m.name, m.applied])).toEqual([
      [WIDGETS, true],
      [PARTS, true],
    ]);
    expect(status[0]?.appliedAt).toBeInstanceOf(Date);
    expect(await migrateUp(t.db, MIGRATIONS)).toEqual([]);

    expect(await migrateDown(t.db, MIGRATIONS)).toEqual([PARTS]);
    expect(await tables()).toEqual(["widgets"]);
    expect(await migrateUp(t.db, MIGRATIONS)).toEqual([PARTS]);
    expect(await migrateDown(t.db, MIGRATIONS, { step: 2 })).toEqual([PARTS, WIDGETS]);
    expect(await tables()).toEqual([]);
    expect(await migrateDown(t.db, MIGRATIONS)).toEqual([]);
  });

  run(
    "runs a pending migration named before the last one run (a teammate's, merged later), as Rails does",
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "wisent-migrations-"));
      const table = (name: string) =>
        `export async function up(db) { await db.schema.createTable("${name}").addColumn("id", "integer").execute(); }\n` +
        `export async function down(db) { await db.schema.dropTable("${name}").execute(); }\n`;
      try {
        await writeFile(join(dir, "20240402000000_create_later.mjs"), table("later"));
        expect(await migrateUp(t.db, dir)).toEqual(["20240402000000_create_later"]);
        await writeFile(join(dir, "20240401000000_create_earlier.mjs"), table("earlier"));
        expect(await migrateUp(t.db, dir)).toEqual(["20240401000000_create_earlier"]);
        expect(await tables()).toEqual(["earlier", "later"]);
        // Down reverts in the order they ran, the last run first.
        expect(await migrateDown(t.db, dir)).toEqual(["20240401000000_create_earlier"]);
        expect(await migrateDown(t.db, dir)).toEqual(["20240402000000_create_later"]);
        expect(await tables()).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  run("names the migration that fails", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wisent-migrations-"));
    try {
      await writeFile(
        join(dir, "20240301000000_broken.mjs"),
        'export async function up(db) { await db.schema.dropTable("no_such_table").execute(); }\n',
      );
      await expect(migrateUp(t.db, dir)).rejects.toThrow(
        /^migration 20240301000000_broken could not run: /,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("migration folders", () => {
  it("refuses a bad step and a missing folder", async () => {
    const t = await createTestDatabase("sqlite");
    try {
      await expect(migrateDown(t.db, MIGRATIONS, { step: 0 })).rejects.toMatchObject({
        code: "E_INVALID_ARGUMENT",
        message: "migrateDown: step must be a whole number of at least 1, got 0",
      });
      await expect(migrateUp(t.db, "/no/such/folder")).rejects.toThrow(
        /cannot read the migrations folder \/no\/such\/folder/,
      );
    } finally {
      await t.drop();
    }
  });

  it("refuses a migration without up() and two files with one name", async () => {
    const t = await createTestDatabase("sqlite");
    const dir = await mkdtemp(join(tmpdir(), "wisent-migrations-"));
    try {
      await writeFile(join(dir, "20240301000000_empty.mjs"), "export const x = 1;\n");
      await expect(migrateUp(t.db, dir)).rejects.toThrow(
        "migration 20240301000000_empty.mjs does not export an up(db) function",
      );
      await writeFile(join(dir, "20240301000000_empty.js"), "export const x = 1;\n");
      await expect(migrateUp(t.db, dir)).rejects.toThrow(
        /two files for migration 20240301000000_empty/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
      await t.drop();
    }
  });
});
