import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { type KyselyPlugin, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database.js";
import { migrateUp } from "./migrations.js";
import { directSqlite } from "./sqlite-request-transaction.js";
import { MIGRATIONS, Widget } from "./test-support/widget.js";

let dir: string;
let file: string;
let db: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wisent-sqlite-request-tx-"));
  file = join(dir, "app.sqlite");
  db = await openDatabase(`sqlite:${file}`);
  await migrateUp(db, MIGRATIONS);
  await Widget.create(db.kysely, { title: "Seeded" });
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether another process-like connection can take SQLite's write lock right now. */
function writeLockFree(): boolean {
  const other = new BetterSqlite3(file, { timeout: 0 });
  try {
    other.exec("begin immediate");
    other.exec("rollback");
    return true;
  } catch (error) {
    expect((error as { code?: string }).code).toBe("SQLITE_BUSY");
    return false;
  } finally {
    other.close();
  }
}

describe("request transactions on SQLite", () => {
  it("begin nothing until the first statement", async () => {
    const tx = await db.beginRequest({ write: true });
    const { trx } = tx;
    expect(trx.isTransaction).toBe(true);
    expect(writeLockFree()).toBe(true);
    await tx.commit();
  });

  it("read without a write transaction for a reading request: a turn's reads share one snapshot, the next turn sees the latest commit", async () => {
    const tx = await db.beginRequest({ write: false });
    const { trx } = tx;
    try {
      expect((await Widget.all(trx)).map((w) => w.title)).toEqual(["Seeded"]);
      // Only a read transaction is open (the turn's shared read), so another process commits
      // in between; this turn's reads still see the database as of its first read, the next
      // turn's see the row.
      expect(writeLockFree()).toBe(true);
      const other = new BetterSqlite3(file);
      try {
        other
          .prepare("insert into widgets (id, title, created_at, updated_at) values (?, ?, ?, ?)")
          .run(
            "0190a6d2-0000-7000-8000-000000000001",
            "Other",
            "2026-01-01T00:00:00.000Z",
            "2026-01-01T00:00:00.000Z",
          );
        expect((await Widget.all(trx)).map((w) => w.title)).toEqual(["Seeded"]);
        await new Promise<void>((resolve) => setImmediate(resolve));
        expect((await Widget.all(trx)).map((w) => w.title).sort()).toEqual(["Other", "Seeded"]);
        other.exec("delete from widgets where title = 'Other'");
      } finally {
        other.close();
      }
    } finally {
      await tx.commit();
    }
  });

  it("begin the transaction at a reading request's first write, which then holds every statement", async () => {
    const tx = await db.beginRequest({ write: false });
    const { trx } = tx;
    await Widget.all(trx);
    expect(writeLockFree()).toBe(true);
    await Widget.create(trx, { title: "Unsaved" });
    expect(writeLockFree()).toBe(false);
    // Reads after the write are inside the transaction: they see the uncommitted row.
    expect((await Widget.all(trx)).map((w) => w.title).sort()).toEqual(["Seeded", "Unsaved"]);
    await tx.rollback();
    expect(writeLockFree()).toBe(true);
    expect((await Widget.all(db.kysely)).map((w) => w.title)).toEqual(["Seeded"]);
  });

  it("take the write lock at once for a writing request, even when it reads first", async () => {
    const tx = await db.beginRequest({ write: true });
    const { trx } = tx;
    await Widget.all(trx);
    expect(writeLockFree()).toBe(false);
    await tx.commit();
    expect(writeLockFree()).toBe(true);
  });

  it("take the write lock when a reading request writes first", async () => {
    const tx = await db.beginRequest({ write: false });
    const { trx } = tx;
    await Widget.create(trx, { title: "Unsaved" });
    expect(writeLockFree()).toBe(false);
    await tx.rollback();
    expect((await Widget.all(db.kysely)).map((w) => w.title)).toEqual(["Seeded"]);
  });

  it("refuse queries and a second end once ended", async () => {
    const tx = await db.beginRequest({ write: false });
    const { trx } = tx;
    await tx.commit();
    await expect(Widget.all(trx)).rejects.toThrow("the request's transaction has already finished");
    // find and paginate read synchronously on SQLite: the refusal still arrives as a rejection.
    await expect(Widget.find(trx, "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b")).rejects.toThrow(
      "the request's transaction has already finished",
    );
    await expect(Widget.paginate(trx, {})).rejects.toThrow(
      "the request's transaction has already finished",
    );
    await expect(tx.commit()).rejects.toThrow("the request's transaction has already finished");
  });

  it("run one at a time, Kysely's own queries and the model's queueing behind them", async () => {
    const [seeded] = await Widget.all(db.kysely);
    const first = await db.beginRequest({ write: true });
    await Widget.create(first.trx, { title: "First" });
    const order: string[] = [];
    const second = db.beginRequest({ write: true }).then((handle) => {
      order.push("second begun");
      return handle;
    });
    const outside = Widget.all(db.kysely).then((rows) => {
      order.push("outside read");
      return rows;
    });
    const found = Widget.find(db.kysely, seeded!.id).then((widget) => {
      order.push("outside find");
      return widget;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    await first.rollback();
    const handle = await second;
    expect(order).toEqual(["second begun"]);
    await handle.commit();
    expect((await outside).map((w) => w.title)).toEqual(["Seeded"]);
    expect((await found).title).toBe("Seeded");
    expect(order).toEqual(["second begun", "outside read", "outside find"]);
  });

  it("end a transaction that SQLite already rolled back without failing", async () => {
    const tx = await db.beginRequest({ write: true });
    const { trx } = tx;
    await sql`select 1`.execute(trx);
    await sql`rollback`.execute(trx);
    await tx.rollback();
    expect(writeLockFree()).toBe(true);
  });

  it("let the model read on the held connection only when no plugin must see the rows", async () => {
    const [seeded] = await Widget.all(db.kysely);
    const tx = await db.beginRequest({ write: false });
    const { trx } = tx;
    const plugin: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => ({
        ...result,
        rows: result.rows.map((row) => ({ ...row, title: `seen: ${String(row.title)}` })),
      }),
    };
    expect(directSqlite(trx)).toBeDefined();
    expect(directSqlite(db.kysely)).toBeDefined();
    expect(directSqlite(db.kysely.withPlugin(plugin))).toBeUndefined();
    const withPlugin = trx.withPlugin(plugin);
    expect(directSqlite(withPlugin)).toBeUndefined();
    expect((await Widget.find(withPlugin, seeded!.id)).title).toBe("seen: Seeded");
    expect((await Widget.find(trx, seeded!.id)).title).toBe("Seeded");
    await tx.commit();
  });
});
