/**
 * `pruneStorage`: stored files no row names, older than the grace period, on the local disk and
 * on an S3-compatible server (s3rver, started here on 127.0.0.1), within its app's and
 * environment's namespace only (two apps and two environments sharing one folder, one bucket);
 * which rows name a key, on every database the machine has.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTable } from "../data/create-table.js";
import { type Database, openDatabase } from "../data/database.js";
import {
  availableDialects,
  createTestDatabase,
  DIALECTS,
  type TestDatabase,
} from "../data/test-support/test-databases.js";
import { type AppStorage, listFiles, openStorage } from "./app-storage.js";
import { pruneStorage, referencedKeys } from "./prune.js";
import { storageNamespace } from "./storage-namespace.js";
import { PRIVATE_FOLDER, variantKey } from "./stored-attachment.js";
import { TestStorages } from "./test-support/test-storages.js";

const available = await availableDialects();
const HOUR = 3_600_000;
const storages = new TestStorages("prune");

beforeAll(() => storages.start());
afterAll(() => storages.stop());

const key = () => `${randomUUID()}.png`;
const column = (stored: string) =>
  JSON.stringify({ key: stored, name: "a.png", type: "image/png", size: 3, checksum: "x" });

async function put(storage: AppStorage, stored: string): Promise<void> {
  await storage.put(stored, Readable.from([Buffer.from("png")]), {
    contentType: "image/png",
    size: 3,
  });
}

async function listed(storage: AppStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list()) keys.push(object.key);
  return keys.sort();
}

/** Tables naming keys: attachment columns (one file, a list), and a key in a note's text. */
async function schema(db: Kysely<unknown>): Promise<void> {
  await createTable(db, "images", (t) => {
    t.uuid("id").primary();
    t.json("file").nullable();
    t.json("files").nullable();
  });
  await createTable(db, "notes", (t) => {
    t.text("body");
  });
}

describe.each(storages.drivers)("pruneStorage on $name", ({ storage: make }) => {
  let storage: AppStorage;
  let db: Database;
  const named = { one: key(), inList: key(), inNote: key() };
  const orphan = key();
  const variantOfNamed = variantKey(named.one, "thumb", "webp");
  const variantOfOrphan = variantKey(orphan, "thumb", "webp");
  const foreign = "backups/notes.txt";

  beforeAll(async () => {
    storage = make();
    db = await openDatabase("sqlite::memory:");
    await schema(db.kysely);
    await db.kysely
      .insertInto("images" as never)
      .values([
        { id: randomUUID(), file: column(named.one), files: null },
        { id: randomUUID(), file: null, files: `[${column(named.inList)}]` },
      ] as never)
      .execute();
    await db.kysely
      .insertInto("notes" as never)
      .values({ body: `moved to ${named.inNote} by hand` } as never)
      .execute();
    for (const stored of [...Object.values(named), orphan, variantOfNamed, variantOfOrphan]) {
      await put(storage, stored);
    }
    await put(storage, foreign);
  });
  afterAll(async () => {
    await db.close();
  });

  it("leaves files younger than the grace period alone", async () => {
    const report = await pruneStorage(storage, db.kysely);
    expect(report).toMatchObject({ kept: 4, recent: 2, foreign: 1, orphans: [] });
    expect(await listed(storage)).toHaveLength(7);
  });

  it("lists the orphans older than the grace period in a dry run, deleting nothing", async () => {
    const report = await pruneStorage(storage, db.kysely, {
      dryRun: true,
      now: new Date(Date.now() + 2 * HOUR),
    });
    expect(report.orphans.map((o) => o.key).sort()).toEqual([orphan, variantOfOrphan].sort());
    expect(report).toMatchObject({ referenced: 3, kept: 4, recent: 0, foreign: 1 });
    expect(await listed(storage)).toHaveLength(7);
  });

  it("deletes the orphans and their variants; named files, their variants and foreign keys stay", async () => {
    const report = await pruneStorage(storage, db.kysely, {
      graceMs: 0,
      now: new Date(Date.now() + 1000),
    });
    expect(report.orphans).toHaveLength(2);
    if (storage.location.driver === "fs") {
      expect(existsSync(storage.path(join("variants", orphan)))).toBe(false);
      expect(existsSync(storage.path(join("variants", named.one)))).toBe(true);
    }
    expect(await listed(storage)).toEqual(
      [...Object.values(named), variantOfNamed, foreign].sort(),
    );
  });
});

/** Every key of the whole storage under `prefix` (not one namespace's). */
async function everything(storage: AppStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listFiles(storage, prefix, true)) keys.push(object.key);
  return keys.sort();
}

describe.each(storages.drivers)(
  "pruneStorage on $name shared by two apps and two environments",
  ({ location: place }) => {
    /** One app in one environment: its storage, its database, what its rows name and what not. */
    interface Tenant {
      storage: AppStorage;
      db: Database;
      named: string[];
      orphans: string[];
    }
    const tenants: Tenant[] = [];
    // Files stored before keys carried a namespace, named by production's rows: nobody's to prune.
    const legacy = [key(), key()];
    const foreign = "backups/notes.txt";
    let root: AppStorage;

    beforeAll(async () => {
      const where = place();
      for (const app of ["shop", "blog"]) {
        for (const env of ["production", "development"]) {
          const storage = openStorage(where, storageNamespace(app, env));
          const db = await openDatabase("sqlite::memory:");
          await schema(db.kysely);
          // A public file, a private one, a list; production's rows also name the legacy files.
          const named = [key(), `${PRIVATE_FOLDER}${key()}`, key()];
          const inRows = [...named, ...(env === "production" && app === "shop" ? legacy : [])];
          for (const stored of inRows) {
            await db.kysely
              .insertInto("images" as never)
              .values({ id: randomUUID(), file: column(stored), files: null } as never)
              .execute();
          }
          const orphans = [key(), `${PRIVATE_FOLDER}${key()}`];
          for (const stored of [...named, ...orphans]) await put(storage, stored);
          await put(storage, variantKey(named[0]!, "thumb", "webp"));
          await put(storage, variantKey(orphans[1]!, "thumb", "webp"));
          tenants.push({ storage, db, named, orphans });
        }
      }
      // The legacy files and a file of someone else's, at the storage's root.
      root = tenants[0]!.storage;
      for (const stored of [...legacy, foreign]) {
        await root.disk.put(stored, "png");
      }
    });
    afterAll(async () => {
      for (const { db } of tenants) await db.close();
    });

    it("deletes only each environment's own orphans: nothing a row of any of them names", async () => {
      const later = new Date(Date.now() + 1000);
      for (const { storage, db, orphans } of tenants) {
        const report = await pruneStorage(storage, db.kysely, { graceMs: 0, now: later });
        expect(report.orphans.map((o) => o.key).sort()).toEqual(
          [...orphans, variantKey(orphans[1]!, "thumb", "webp")].sort(),
        );
        expect(report).toMatchObject({ kept: 4, foreign: 0, legacy: legacy.length });
      }
      for (const app of ["shop", "blog"]) {
        const expected = tenants
          .filter(({ storage }) => storage.namespace.app === app)
          .flatMap(({ storage, named }) =>
            [...named, variantKey(named[0]!, "thumb", "webp")].map(
              (stored) => `${storage.namespace.prefix}/${stored}`,
            ),
          );
        expect(await everything(root, `${app}/`)).toEqual(expected.sort());
      }
      for (const stored of [...legacy, foreign]) expect(await root.disk.exists(stored)).toBe(true);
    });

    it("leaves another environment's files alone even when its own database names none", async () => {
      // A development database with one row (the run without GO_ENV), pruning after
      // production's: production's files stay.
      const development = tenants.find(
        ({ storage }) => storage.namespace.prefix === "shop/development",
      )!;
      await development.db.kysely.deleteFrom("images" as never).execute();
      const report = await pruneStorage(development.storage, development.db.kysely, {
        graceMs: 0,
        now: new Date(Date.now() + 1000),
      });
      expect(report.orphans.map((o) => o.key).sort()).toEqual(
        [...development.named, variantKey(development.named[0]!, "thumb", "webp")].sort(),
      );
      const production = tenants.find(
        ({ storage }) => storage.namespace.prefix === "shop/production",
      )!;
      for (const stored of production.named)
        expect(await production.storage.exists(stored)).toBe(true);
      expect(await everything(root, "blog/")).toHaveLength(8);
    });
  },
);

describe.each(DIALECTS)("referencedKeys on %s", (dialect) => {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    if (available[dialect]) t = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it.skipIf(!available[dialect])(
    "finds keys in JSON columns page after page, and in text",
    async () => {
      const db = t!.db.kysely;
      await schema(db);
      // More rows than one page of the scan, the key in the last one by id.
      const last = key();
      const rows = Array.from({ length: 1205 }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        file: i === 1204 ? column(last) : null,
        files: i === 3 ? `[${column("x")}]` : null,
      }));
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto("images" as never)
          .values(rows.slice(i, i + 200) as never)
          .execute();
      }
      const inNote = key();
      await db
        .insertInto("notes" as never)
        .values({ body: `see ${inNote}` } as never)
        .execute();
      expect([...(await referencedKeys(db))].sort()).toEqual([last, inNote].sort());
    },
    60_000,
  );

  it.skipIf(!available[dialect])(
    "reads every row of a table whose id repeats across a page's end or is missing",
    async () => {
      const db = t!.db.kysely;
      await db.schema
        .createTable("copies")
        .addColumn("id", "varchar(20)")
        .addColumn("file", "text")
        .execute();
      // 1,010 rows: the last 15 by id share "m-shared", across the end of the first page (1,000);
      // two have no id. Each row names its own file.
      const rows = Array.from({ length: 1010 }, (_, i) => ({
        id: i < 995 ? `a-${String(i).padStart(4, "0")}` : "m-shared",
        file: column(key()),
      }));
      rows.push({ id: null as unknown as string, file: column(key()) });
      rows.push({ id: null as unknown as string, file: column(key()) });
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto("copies" as never)
          .values(rows.slice(i, i + 200) as never)
          .execute();
      }
      const keys = await referencedKeys(db);
      const expected = rows.map((row) => JSON.parse(row.file).key as string);
      expect(expected.filter((k) => !keys.has(k))).toEqual([]);
    },
    60_000,
  );
});
