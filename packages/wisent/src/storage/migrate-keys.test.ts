/**
 * `migrateKeys`: files stored at the root (before keys carried the app and the environment)
 * moved into the namespace of the environment whose rows name them, on the local disk and on an
 * S3-compatible server (s3rver, started here on 127.0.0.1); then pruning each environment
 * deletes nothing a row names.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTable } from "../data/create-table.js";
import { type Database, openDatabase } from "../data/database.js";
import { type AppStorage, listFiles, openStorage } from "./app-storage.js";
import { migrateKeys } from "./migrate-keys.js";
import { pruneStorage } from "./prune.js";
import { storageNamespace } from "./storage-namespace.js";
import { variantKey } from "./stored-attachment.js";
import { TestStorages } from "./test-support/test-storages.js";

const storages = new TestStorages("migrate");
beforeAll(() => storages.start());
afterAll(() => storages.stop());

const key = () => `${randomUUID()}.png`;

async function database(...keys: string[]): Promise<Database> {
  const db = await openDatabase("sqlite::memory:");
  await createTable(db.kysely, "images", (t) => {
    t.uuid("id").primary();
    t.json("file").nullable();
  });
  for (const stored of keys) {
    await db.kysely
      .insertInto("images" as never)
      .values({
        id: randomUUID(),
        file: JSON.stringify({ key: stored, name: "a.png", type: "image/png" }),
      } as never)
      .execute();
  }
  return db;
}

async function everything(storage: AppStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listFiles(storage, "", true)) keys.push(object.key);
  return keys.sort();
}

describe.each(storages.drivers)("migrateKeys on $name", ({ location: place }) => {
  let production: AppStorage;
  let staging: AppStorage;
  let other: AppStorage;
  const dbs: Database[] = [];
  // Production's two files (one with a thumbnail), one staging shares (its database is a copy),
  // staging's own, another app's, and one nobody names.
  const ours = [key(), key()];
  const shared = key();
  const stagings = key();
  const others = key();
  const nobodys = key();
  let productionDb: Database;
  let stagingDb: Database;
  let otherDb: Database;
  /** The whole storage once every environment has run. */
  const migrated = () =>
    [
      nobodys,
      `blog/production/${others}`,
      ...[...ours, shared].map((stored) => `shop/production/${stored}`),
      `shop/production/${variantKey(ours[0]!, "thumb", "webp")}`,
      ...[shared, stagings].map((stored) => `shop/staging/${stored}`),
    ].sort();

  beforeAll(async () => {
    const where = place();
    production = openStorage(where, storageNamespace("shop", "production"));
    staging = openStorage(where, storageNamespace("shop", "staging"));
    other = openStorage(where, storageNamespace("blog", "production"));
    for (const stored of [...ours, shared, stagings, others, nobodys]) {
      await production.disk.put(stored, "png");
    }
    await production.disk.put(`variants/${ours[0]}/thumb.webp`, "webp");
    productionDb = await database(...ours, shared);
    stagingDb = await database(shared, stagings);
    otherDb = await database(others);
    dbs.push(productionDb, stagingDb, otherDb);
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it("lists in a dry run what it would move, moving nothing", async () => {
    const before = await everything(production);
    const report = await migrateKeys(production, productionDb.kysely, { dryRun: true });
    expect(report.moved).toEqual([...ours, shared].sort());
    expect(report.left).toBe(3);
    expect(await everything(production)).toEqual(before);
  });

  it("moves each environment's files into its namespace, copies what another moved, leaves the rest", async () => {
    const first = await migrateKeys(production, productionDb.kysely);
    expect(first).toMatchObject({ copied: [], present: 0, missing: [], left: 3 });
    expect(first.moved).toEqual([...ours, shared].sort());
    // Staging's copy of production's database names `shared`, which production moved.
    const second = await migrateKeys(staging, stagingDb.kysely);
    expect(second).toMatchObject({
      moved: [stagings],
      copied: [{ key: shared, from: "shop/production" }],
      missing: [],
    });
    expect((await migrateKeys(other, otherDb.kysely)).moved).toEqual([others]);
    expect(await everything(production)).toEqual(migrated());
    // Run again: everything is in place.
    expect(await migrateKeys(production, productionDb.kysely)).toMatchObject({
      moved: [],
      present: 3,
      left: 1,
    });
  });

  it("then pruning every environment deletes nothing a row names", async () => {
    const later = new Date(Date.now() + 1000);
    for (const [storage, db] of [
      [production, productionDb],
      [staging, stagingDb],
      [other, otherDb],
    ] as const) {
      const report = await pruneStorage(storage, db.kysely, { graceMs: 0, now: later });
      expect(report.orphans).toEqual([]);
      expect(report.legacy).toBe(1);
    }
    expect(await everything(production)).toEqual(migrated());
  });
});
