/**
 * The generator's `--tests=full` matrix, as one shared case table: every attribute type (files,
 * sized decimals and references included), with and without `:uniq`, in resources owned and
 * not, nested and not, alone and combined. Few apps hold many resources each, so its cost is
 * that of two generated apps (full-tests-matrix.test.ts: a web app and an API app).
 */
import { EVERY_TYPE } from "./generated-app.js";

/** One `wisent g r` of the matrix. */
export interface MatrixResource {
  readonly name: string;
  readonly attributes: readonly string[];
  /** `--parent`: generated before it, in the same app. */
  readonly parent?: string;
  /** After `wisent g auth`: `owned` (the default), `--shared` or `--public`. */
  readonly access: "owned" | "shared" | "public";
}

/** Every attribute type of the table, once, each without `:uniq`. */
export const EVERY_TYPE_AND_FILE: readonly string[] = [
  ...EVERY_TYPE,
  "size:decimal{5,0}",
  "cover:attachment",
  "scans:attachments",
];

/**
 * The types a unique index can hold apart, each with `:uniq` (as `u_<name>`). Left out: `bool`
 * (two records at most), `json` and files (no database indexes JSON: both refused by the
 * generator), and `time` (a day has 86,400 of them: random test values would collide now and
 * then in a test database that keeps its rows).
 */
export const EVERY_UNIQUE_TYPE: readonly string[] = EVERY_TYPE.flatMap((attribute) => {
  const [name, type = "string"] = attribute.split(":");
  return /^(bool|json|time)$/.test(type) ? [] : [`u_${name}:${type}:uniq`];
});

/**
 * The resources of each matrix app, parents first. `publisher` is the record referenced and a
 * public parent; `book` an owned parent (a parent's fixture may not reference another record,
 * so the references are in the resources below them).
 */
export const MATRIX: readonly MatrixResource[] = [
  { name: "publisher", attributes: ["name"], access: "public" },
  // Owned, top-level: every type, and every unique one.
  { name: "book", attributes: [...EVERY_TYPE_AND_FILE, ...EVERY_UNIQUE_TYPE], access: "owned" },
  // Owned, nested in an owned parent, with a reference.
  {
    name: "chapter",
    parent: "book",
    attributes: [...EVERY_TYPE_AND_FILE, ...EVERY_UNIQUE_TYPE, "publisher:references"],
    access: "owned",
  },
  // Shared, nested in a public parent.
  {
    name: "imprint",
    parent: "publisher",
    attributes: [...EVERY_TYPE_AND_FILE, ...EVERY_UNIQUE_TYPE],
    access: "shared",
  },
  // Public, top-level, with a reference.
  {
    name: "catalog",
    attributes: [...EVERY_TYPE_AND_FILE, ...EVERY_UNIQUE_TYPE, "publisher:references"],
    access: "public",
  },
  // Alone: a file, a unique field on an owned nested resource, a sized decimal, a reference.
  { name: "photo", attributes: ["image:attachment"], access: "owned" },
  { name: "serial", parent: "book", attributes: ["code:uniq"], access: "owned" },
  { name: "quote", attributes: ["amount:decimal{10,2}"], access: "public" },
  { name: "listing", attributes: ["publisher:references"], access: "shared" },
  // One-to-one: a unique reference (each record its own publisher).
  { name: "contract", attributes: ["title", "publisher:references:uniq"], access: "owned" },
];

/** The `wisent g r` arguments of a matrix resource, with passing tests. */
export function generateArgs(resource: MatrixResource): string[] {
  return [
    "g",
    "r",
    resource.name,
    ...resource.attributes,
    ...(resource.parent ? ["--parent", resource.parent] : []),
    ...(resource.access === "owned" ? [] : [`--${resource.access}`]),
    "--tests=full",
  ];
}
