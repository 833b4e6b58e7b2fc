import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineModel } from "./model.js";
import { ModelStatements } from "./model-statements.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";

const available = await availableDialects();

// An optional field without a default: rows are written with two different column lists.
const Note = defineModel({
  table: "widgets",
  name: "note",
  schema: z.object({ title: z.string().min(1), description: z.string().optional() }),
});

describe.each(DIALECTS)("compiled model statements on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect]);

  it.skipIf(!available[dialect])(
    "count a table up to the cap, whether its count or its capped count answers",
    async () => {
      const db = t.db.kysely;
      const statements = new ModelStatements("widgets");
      expect(await statements.cappedCount(db, 3)).toBe(0);
      for (const title of ["a", "b", "c", "d", "e"]) await Note.create(db, { title });
      expect(await statements.cappedCount(db, 10)).toBe(5);
      expect(await statements.cappedCount(db, 5)).toBe(5);
      expect(await statements.cappedCount(db, 3)).toBe(3);
      await Note.destroy(db, (await Note.all(db))[0]!);
      expect(await statements.cappedCount(db, 4)).toBe(4);
      expect(await statements.cappedCount(db, 10)).toBe(4);
      for (const note of await Note.all(db)) await Note.destroy(db, note);
    },
  );

  it.skipIf(!available[dialect])(
    "bind each row's own values whichever column list came first",
    async () => {
      const db = t.db.kysely;
      const plain = await Note.create(db, { title: "plain" });
      const described = await Note.create(db, { title: "described", description: "d" });
      const plainAgain = await Note.create(db, { title: "plain again" });
      const stored = await Note.all(db);
      expect(stored.map((n) => [n.id, n.title, n.description])).toEqual([
        [plain.id, "plain", null],
        [described.id, "described", "d"],
        [plainAgain.id, "plain again", null],
      ]);

      await Note.update(db, plain, { title: "renamed" });
      await Note.update(db, described, { description: "changed" });
      await Note.destroy(db, plainAgain);
      const after = await Note.all(db);
      expect(after.map((n) => [n.title, n.description])).toEqual([
        ["renamed", null],
        ["described", "changed"],
      ]);
    },
  );

  it.skipIf(!available[dialect])(
    "run inside a request transaction and roll back with it",
    async () => {
      const before = (await Note.all(t.db.kysely)).length;
      const tx = await t.db.beginRequest({ write: true });
      const { trx } = tx;
      const made = await Note.create(trx, { title: "in a transaction" });
      expect((await Note.find(trx, made.id)).title).toBe("in a transaction");
      const page = await Note.paginate(trx, { per_page: "1", page: "1" });
      expect(page.paginator.total_entries_size).toBe(before + 1);
      await tx.rollback();
      expect((await Note.all(t.db.kysely)).length).toBe(before);
    },
  );
});

describe("compiled model statements on SQLite", () => {
  const t = migratedTestDatabase("sqlite", true);
  afterEach(() => vi.restoreAllMocks());

  it("write a page's LIMIT and the count's cap into the SQL they prepare, and bind the rest", async () => {
    // SQLite prepares a statement with a bound LIMIT again at every run (its planner reads the
    // value): a page read cost 40% more.
    const prepared: string[] = [];
    const prepare = BetterSqlite3.prototype.prepare;
    vi.spyOn(BetterSqlite3.prototype, "prepare").mockImplementation(function (
      this: BetterSqlite3.Database,
      source: string,
    ) {
      prepared.push(source);
      return prepare.call(this, source);
    });
    const db = t.db.kysely;
    const made = [];
    for (const title of ["a", "b", "c"]) made.push(await Note.create(db, { title }));
    const statements = new ModelStatements("widgets");
    const ids = made.map((note) => note.id).sort();
    const idsOf = async (rows: unknown) => ((await rows) as { id: string }[]).map((r) => r.id);

    expect(await idsOf(statements.page(db, 2, 1))).toEqual(ids.slice(1, 3));
    expect(await idsOf(statements.walk(db, "after", ids[0], 1))).toEqual([ids[1]]);
    expect(await idsOf(statements.walk(db, "before", ids[2], 5))).toEqual([ids[1], ids[0]]);
    expect(await idsOf(statements.walk(db, "before", undefined, 2))).toEqual([ids[2], ids[1]]);
    expect(await statements.cappedCount(db, 2)).toBe(2);
    expect(await statements.cappedCount(db, 10)).toBe(3);

    const reads = prepared.filter((source) => /\blimit\b|count/i.test(source));
    expect(reads.some((source) => /\blimit 2 offset \?/.test(source))).toBe(true);
    expect(reads.some((source) => /\blimit 5\b/.test(source))).toBe(true);
    expect(reads.filter((source) => /\blimit \?|<= \?/.test(source))).toEqual([]);
    for (const note of made) await Note.destroy(db, note);
  });
});
