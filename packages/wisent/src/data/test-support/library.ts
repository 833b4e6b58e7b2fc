import { z } from "zod";
import { decimal } from "../../validation/decimal.js";
import { defineModel, type RecordOf } from "../model.js";

/** An author (test-support/library-migrations/20240103000000_create_library.ts). */
export const Author = defineModel({
  table: "authors",
  schema: z.object({ name: z.string().trim().min(1) }),
});
export type Author = RecordOf<typeof Author>;

const bookSchema = z.object({
  author_id: z.uuid(),
  isbn: z.string().trim().min(1),
  title: z.string().trim().min(1),
  price: decimal(12, 2),
});

/** A book: a unique ISBN, checked by the model, and its author checked to exist. */
export const Book = defineModel({
  table: "books",
  schema: bookSchema,
  unique: ["isbn"],
  references: { author_id: "authors" },
});
export type Book = RecordOf<typeof Book>;

/** The same table with no checks of its own: only the database's constraints refuse. */
export const UncheckedBook = defineModel({ table: "books", schema: bookSchema });

/** A review, deleted with its book (a cascading foreign key). */
export const Review = defineModel({
  table: "reviews",
  schema: z.object({ book_id: z.uuid(), body: z.string() }),
});

/** The migrations of authors, books and reviews, for `migratedTestDatabase`'s `migrations`. */
export const LIBRARY_MIGRATIONS = new URL("./library-migrations", import.meta.url).pathname;
