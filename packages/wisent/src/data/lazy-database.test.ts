import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { database } from "./database.js";

describe("database() (lazy)", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("creates no SQLite file until the first query", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-lazy-"));
    dirs.push(dir);
    const file = join(dir, "db", "development.sqlite");
    const db = database(`sqlite:${file}`);
    expect(db.dialect).toBe("sqlite");
    expect(existsSync(file)).toBe(false);
    const result = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    expect(result.rows).toEqual([{ one: 1 }]);
    expect(existsSync(file)).toBe(true);
    await db.close();
  });

  it("reports an unreachable server at check(), naming the masked URL", async () => {
    const db = database("postgres://app:s3cret@127.0.0.1:1/nothing");
    await expect(db.check()).rejects.toThrow(/postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/nothing/);
    await db.close().catch(() => {});
  });

  it("still rejects a malformed URL at once", () => {
    expect(() => database("nonsense")).toThrow(/invalid DATABASE_URL "nonsense"/);
  });
});
