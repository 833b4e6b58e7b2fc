import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  sql,
} from "kysely";
import { describe, expect, it } from "vitest";
import { DependentRecordsError } from "./dependents.js";
import { ValidationFailedError } from "./model.js";
import { Author, Book, LIBRARY_MIGRATIONS, Review, UncheckedBook } from "./test-support/library.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";

const available = await availableDialects();

let serial = 0;
/** A new ISBN each call, so tests never collide by accident. */
const isbn = () => `978-${process.pid}-${++serial}`;

/** Counts the queries run through the Kysely it is added to. */
function queryCounter(): KyselyPlugin & { count: number } {
  const counter = {
    count: 0,
    transformQuery(args: PluginTransformQueryArgs) {
      counter.count++;
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs) {
      return args.result;
    },
  };
  return counter;
}

/**
 * Uniqueness, references and decimals as the database decides them, on every database: the
 * model's own checks, and the database's constraint errors (when the checks are skipped, or a
 * concurrent write wins) answered as the same field errors, never a database error.
 */
describe.each(DIALECTS)("constraints on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect], {
    poolSize: 12,
    migrations: LIBRARY_MIGRATIONS,
  });
  const skip = !available[dialect];

  it.skipIf(skip)(
    "refuses a taken unique value, by the model's check and by the index",
    async () => {
      const db = t.db.kysely;
      const author = await Author.create(db, { name: "Ursula" });
      const taken = isbn();
      const first = await Book.tryCreate(db, {
        author_id: author.id,
        isbn: taken,
        title: "A",
        price: 10,
      });
      expect(first.ok).toBe(true);
      const again = await Book.tryCreate(db, {
        author_id: author.id,
        isbn: taken,
        title: "B",
        price: 10,
      });
      expect(again.errors?.toJSON()).toEqual({
        errors: { isbn: ["Isbn has already been taken."] },
      });
      await expect(
        Book.create(db, { author_id: author.id, isbn: taken, title: "B", price: 10 }),
      ).rejects.toSatisfy(
        (e) =>
          e instanceof ValidationFailedError &&
          e.status === 422 &&
          e.errors.get("isbn").length === 1,
      );
      // The index alone (no `unique` option): the database's error, named by field.
      const byIndex = await UncheckedBook.tryCreate(db, {
        author_id: author.id,
        isbn: taken,
        title: "C",
        price: 10,
      });
      expect(byIndex.errors?.toJSON()).toEqual({
        errors: { isbn: ["Isbn has already been taken."] },
      });
      // An update to a taken value, and an update that keeps its own value.
      const other = await Book.create(db, {
        author_id: author.id,
        isbn: isbn(),
        title: "D",
        price: 1,
      });
      const moved = await Book.tryUpdate(db, other, { isbn: taken });
      expect(moved.errors?.get("isbn")).toEqual(["Isbn has already been taken."]);
      const movedByIndex = await UncheckedBook.tryUpdate(db, other, { isbn: taken });
      expect(movedByIndex.errors?.get("isbn")).toEqual(["Isbn has already been taken."]);
      const kept = await Book.tryUpdate(db, first.data!, { title: "A, revised" });
      expect(kept.ok).toBe(true);
      expect((await Book.find(db, first.data!.id)).title).toBe("A, revised");
    },
  );

  it.skipIf(skip)(
    "keeps the transaction usable after the database refuses a write (PostgreSQL: a savepoint)",
    async () => {
      const author = await Author.create(t.db.kysely, { name: "In one transaction" });
      const taken = isbn();
      const nobody = "0190f5a2-7b1c-7cde-8f00-1234567890ab";
      const book = { author_id: author.id, title: "T", price: 1 };
      const kept = await t.db.kysely.transaction().execute(async (tx) => {
        const first = await UncheckedBook.tryCreate(tx, { ...book, isbn: taken });
        // Refused by the unique index and by the foreign key (the model checks neither), 422s...
        const duplicate = await UncheckedBook.tryCreate(tx, { ...book, isbn: taken });
        expect(duplicate.errors?.get("isbn")).toEqual(["Isbn has already been taken."]);
        const orphan = await UncheckedBook.tryCreate(tx, {
          ...book,
          author_id: nobody,
          isbn: isbn(),
        });
        expect(orphan.errors?.get("author_id")).toEqual(["Author must exist."]);
        const other = await UncheckedBook.create(tx, { ...book, isbn: isbn() });
        const moved = await UncheckedBook.tryUpdate(tx, other, { isbn: taken });
        expect(moved.errors?.get("isbn")).toEqual(["Isbn has already been taken."]);
        // ...after which the same transaction reads and writes on, and commits what it wrote.
        const later = await UncheckedBook.create(tx, { ...book, isbn: isbn() });
        expect((await Author.find(tx, author.id)).name).toBe("In one transaction");
        return [first.data!.id, other.id, later.id];
      });
      const stored = await Book.query(t.db.kysely).where("author_id", "=", author.id).execute();
      expect(stored.map((b) => b.id).sort()).toEqual([...kept].sort());
    },
  );

  it.skipIf(skip)("answers one of 10 racing creates and refuses the other 9 by field", async () => {
    const author = await Author.create(t.db.kysely, { name: "Racer" });
    const taken = isbn();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.db.kysely
          .transaction()
          .execute((tx) =>
            Book.tryCreate(tx, { author_id: author.id, isbn: taken, title: `R${i}`, price: i }),
          ),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const refused of results.filter((r) => !r.ok)) {
      expect(refused.errors?.toJSON()).toEqual({
        errors: { isbn: ["Isbn has already been taken."] },
      });
    }
    const stored = await Book.query(t.db.kysely).where("isbn", "=", taken).execute();
    expect(stored).toHaveLength(1);
  });

  it.skipIf(skip)("refuses to delete a parent with dependents, naming them (409)", async () => {
    const db = t.db.kysely;
    const author = await Author.create(db, { name: "Prolific" });
    for (let i = 0; i < 11; i++) {
      await Book.create(db, { author_id: author.id, isbn: isbn(), title: `B${i}`, price: 1 });
    }
    const error = await Author.destroy(db, author).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DependentRecordsError);
    expect((error as DependentRecordsError).status).toBe(409);
    expect((error as DependentRecordsError).message).toBe("Author has 11 books.");
    expect(await Book.query(db).where("author_id", "=", author.id).execute()).toHaveLength(11);

    // In a transaction, which stays usable after the refusal (PostgreSQL: a savepoint).
    await db.transaction().execute(async (tx) => {
      await expect(Author.destroy(tx, author)).rejects.toThrow("Author has 11 books.");
      expect((await Author.find(tx, author.id)).name).toBe("Prolific");
    });

    // A cascading foreign key does not refuse: a book goes with its reviews.
    const lonely = await Author.create(db, { name: "One book" });
    const book = await Book.create(db, {
      author_id: lonely.id,
      isbn: isbn(),
      title: "Only",
      price: 1,
    });
    const review = await Review.create(db, { book_id: book.id, body: "Fine." });
    await expect(Author.destroy(db, lonely)).rejects.toThrow("Author has 1 book.");
    await Book.destroy(db, book);
    await expect(Review.find(db, review.id)).rejects.toThrow("not found");
    await Author.destroy(db, lonely);
  });

  it.skipIf(skip)("refuses a reference to nothing as a 422 on the field", async () => {
    const db = t.db.kysely;
    const nobody = "0190f5a2-7b1c-7cde-8f00-1234567890ab";
    const checked = await Book.tryCreate(db, {
      author_id: nobody,
      isbn: isbn(),
      title: "X",
      price: 1,
    });
    expect(checked.errors?.toJSON()).toEqual({ errors: { author_id: ["Author must exist."] } });
    // Without the model's check: the foreign key refuses, named by field.
    const byKey = await UncheckedBook.tryCreate(db, {
      author_id: nobody,
      isbn: isbn(),
      title: "X",
      price: 1,
    });
    expect(byKey.errors?.toJSON()).toEqual({ errors: { author_id: ["Author must exist."] } });
    const author = await Author.create(db, { name: "Real" });
    const book = await Book.create(db, {
      author_id: author.id,
      isbn: isbn(),
      title: "Y",
      price: 1,
    });
    const moved = await UncheckedBook.tryUpdate(db, book, { author_id: nobody });
    expect(moved.errors?.get("author_id")).toEqual(["Author must exist."]);
  });

  it.skipIf(skip)(
    "keeps decimals exactly as written, refusing more places than the scale",
    async () => {
      const db = t.db.kysely;
      const author = await Author.create(db, { name: "Pricer" });
      const base = { author_id: author.id, title: "Priced" };
      const tooPrecise = await Book.tryCreate(db, { ...base, isbn: isbn(), price: 12.511 });
      expect(tooPrecise.errors?.toJSON()).toEqual({
        errors: { price: ["Price must have at most 2 decimal places."] },
      });
      const floatNoise = await Book.tryCreate(db, { ...base, isbn: isbn(), price: 0.1 + 0.2 });
      expect(floatNoise.errors?.get("price")).toEqual([
        "Price must have at most 2 decimal places.",
      ]);
      for (const [price, text] of [
        [12.51, "12.51"],
        [12.5, "12.50"],
        ["0.01", "0.01"],
        [-3.25, "-3.25"],
        ["99999999.99", "99999999.99"],
        [0, "0.00"],
      ] as const) {
        const saved = await Book.tryCreate(db, { ...base, isbn: isbn(), price });
        expect(saved.ok).toBe(true);
        expect(saved.data!.price).toBe(text);
        const read = await Book.find(db, saved.data!.id);
        expect(read.price).toBe(text);
      }
    },
  );

  it.skipIf(skip)("loads a page's parents and a list's children in one query each", async () => {
    const author = await Author.create(t.db.kysely, { name: "Preloaded" });
    const second = await Author.create(t.db.kysely, { name: "Other" });
    for (const [i, who] of [author, second, author].entries()) {
      await Book.create(t.db.kysely, { author_id: who.id, isbn: isbn(), title: `P${i}`, price: i });
    }
    const counter = queryCounter();
    const db = t.db.kysely.withPlugin(counter);
    const books = await Book.query(db)
      .where("author_id", "in", [author.id, second.id])
      .orderBy("id")
      .execute();
    const before = counter.count;
    const withAuthors = await Book.preload(db, books, "author", Author);
    expect(counter.count - before).toBe(1);
    expect(withAuthors.map((b) => b.author.name)).toEqual(["Preloaded", "Other", "Preloaded"]);
    const booksOf = await Book.byParent(db, "author_id", [author, second]);
    expect(counter.count - before).toBe(2);
    expect(booksOf.get(author.id)?.map((b) => b.title)).toEqual(["P0", "P2"]);
    expect(booksOf.get(second.id)?.map((b) => b.title)).toEqual(["P1"]);
  });

  it.skipIf(dialect !== "sqlite")(
    "has SQLite enforce foreign keys (PRAGMA foreign_keys=ON)",
    async () => {
      const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(
        t.db.kysely,
      );
      expect(rows[0]?.foreign_keys).toBe(1);
    },
  );
});
