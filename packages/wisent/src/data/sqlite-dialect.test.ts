import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./database.js";
import { migrateUp, migrationStatus } from "./migrations.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "wisent-sqlite-ddl-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("SQLite migrations run in one transaction (DDL included)", () => {
  it("leave no table behind when a migration fails half-way, and none of the run's migrations applied", async () => {
    const migrations = folderWith({
      "20240101000000_create_alphas.mjs":
        "export async function up(db) { await db.schema.createTable('alphas').addColumn('id', 'text').execute(); }",
      "20240102000000_create_betas_then_fail.mjs":
        "export async function up(db) { await db.schema.createTable('betas').addColumn('id', 'text').execute(); throw new Error('half-way'); }",
    });
    const data = folderWith({});
    const db = await openDatabase(`sqlite:${join(data, "t.sqlite")}`);
    try {
      await expect(migrateUp(db, migrations)).rejects.toThrow(
        "migration 20240102000000_create_betas_then_fail could not run: half-way",
      );
      const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
      expect(tables.filter((t) => !t.startsWith("wisent_"))).toEqual([]);
      expect((await migrationStatus(db, migrations)).map((m) => m.applied)).toEqual([false, false]);
    } finally {
      await db.close();
    }
  });
});
