import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { validate } from "../validation/validation.js";
import { Author, Book, LIBRARY_MIGRATIONS } from "./test-support/library.js";
import { migratedTestDatabase } from "./test-support/test-databases.js";

// Every ValidationErrors made, counted: it is an Error, and making one captures a stack trace
// (about 3 us), which a valid write should not pay.
const made = vi.hoisted(() => ({ count: 0 }));
vi.mock("../validation/validation-errors.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../validation/validation-errors.js")>();
  class CountedValidationErrors extends actual.ValidationErrors {
    constructor(...args: ConstructorParameters<typeof actual.ValidationErrors>) {
      super(...args);
      made.count++;
    }
  }
  return { ...actual, ValidationErrors: CountedValidationErrors };
});

let serial = 0;
const isbn = () => `979-${process.pid}-${++serial}`;

describe("valid input makes no ValidationErrors", () => {
  const t = migratedTestDatabase("sqlite", true, { migrations: LIBRARY_MIGRATIONS });
  beforeEach(() => {
    made.count = 0;
  });
  afterEach(() => {
    made.count = 0;
  });

  const schema = z.object({ title: z.string().min(1), tags: z.array(z.string()) });

  it("validate() of valid input makes none; invalid and malformed input still get theirs", () => {
    expect(validate(schema, { title: "Dune", tags: ["sf"] }).ok).toBe(true);
    expect(made.count).toBe(0);

    const blank = validate(schema, { title: "", tags: [] });
    expect(blank.ok).toBe(false);
    expect(made.count).toBe(1);
    expect(blank.errors?.toJSON()).toEqual({ errors: { title: ["Title can not be blank."] } });

    const malformed = validate(schema, { title: "ok", tags: ["a", "b\u0000", "c\u0001"] });
    expect(made.count).toBe(2);
    expect(malformed.errors?.toJSON()).toEqual({
      errors: {
        "tags.1": ["Tags must not contain control characters or unpaired surrogates."],
        "tags.2": ["Tags must not contain control characters or unpaired surrogates."],
      },
    });
  });

  it("a model's valid create and update make none; a taken unique value and a missing parent still answer", async () => {
    const db = t.db.kysely;
    const author = await Author.create(db, { name: "Frank" });
    const taken = isbn();
    const book = await Book.tryCreate(db, {
      author_id: author.id,
      isbn: taken,
      title: "A",
      price: 1,
    });
    expect(book.ok).toBe(true);
    const updated = await Book.tryUpdate(db, book.data!, { title: "B" });
    expect(updated.ok).toBe(true);
    expect(made.count).toBe(0);

    const again = await Book.tryCreate(db, {
      author_id: author.id,
      isbn: taken,
      title: "C",
      price: 1,
    });
    expect(again.errors?.toJSON()).toEqual({ errors: { isbn: ["Isbn has already been taken."] } });
    const orphan = await Book.tryCreate(db, {
      author_id: "0190a8b4-0000-7000-8000-000000000000",
      isbn: isbn(),
      title: "D",
      price: 1,
    });
    expect(orphan.errors?.toJSON()).toEqual({ errors: { author_id: ["Author must exist."] } });
  });
});
