import type { KyselyPlugin, SelectQueryBuilder } from "kysely";
import type { z } from "zod";
import { HttpError } from "../base/http-error.js";
import { WisentError } from "../base/wisent-error.js";
import { singularize } from "../naming/inflection.js";
import { discardTemporaryFiles } from "../storage/upload-scope.js";
import { humanizeField, type Validated, validate } from "../validation/validation.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import type { AnyDB } from "./any-db.js";
import { constraintViolation } from "./constraint-violation.js";
import { indexName } from "./create-table.js";
import { DependentRecordsError, dependentsOf, missingParentColumns } from "./dependents.js";
import { type MaybePromise, settle, settleWith } from "./maybe-promise.js";
import {
  attachmentFieldsOf,
  deleteAttachmentsOf,
  type ModelFiles,
  readAttachments,
  readFilesFromCode,
  registerModelFiles,
  saveWithAttachments,
} from "./model-attachments.js";
import { decimalFieldsOf, readDecimals } from "./model-decimals.js";
import { ModelStatements, type Scope } from "./model-statements.js";
import { badCursor, type CursorParam, type CursorValue, encodeCursor } from "./page-cursor.js";
import {
  type ListSource,
  listRequest,
  type PageParams,
  type Paginated,
  readList,
} from "./pagination.js";
import type { Queryable } from "./queryable.js";
import { StoredDate } from "./stored-date.js";
import { checkUnpermitted, type UnpermittedFields, unpermittedFields } from "./unpermitted.js";
import { uuidKey, uuidv7 } from "./uuid.js";
import { inWriteSavepoint } from "./write-savepoint.js";
import { noteWrite } from "./written-records.js";

/** The columns every model row has besides its own fields. */
export interface ModelColumns {
  id: string;
  created_at: Date;
  updated_at: Date;
}

/** A stored record: the schema's output plus `id`, `created_at` and `updated_at`. */
export type ModelRecord<S extends z.ZodObject> = ModelColumns & z.output<S>;

/** The record type of a model: `export type Widget = RecordOf<typeof Widget>;`. */
export type RecordOf<M> = M extends Model<infer S> ? ModelRecord<S> : never;

/** The foreign key columns of a record type that end in `_id`, by the name without it: `author`. */
export type ParentKey<R> = {
  [C in keyof R & string]: C extends `${infer P}_id` ? P : never;
}[keyof R & string];

/** The columns of a record type that hold a foreign key (`author_id`). */
export type ForeignKeyColumn<R> = `${ParentKey<R>}_id` & keyof R;

/** A record with its parent attached under `K`: `null` when its foreign key is nullable and null. */
export type WithParent<R, K extends string, P> = R & {
  [key in K]: null extends R[`${K}_id` & keyof R] ? P | null : P;
};

/** Thrown by `create`/`update` when the attributes do not pass the schema: a 422 with the errors. */
export class ValidationFailedError extends HttpError {
  override name = "ValidationFailedError";
  /**
   * @param model - the model's name, for the message (`widget is invalid: ...`)
   * @param errors - the failures by field, kept as `errors`
   */
  constructor(
    model: string,
    readonly errors: ValidationErrors,
  ) {
    super(422, `${model} is invalid: ${Object.values(errors.errors).flat().join(" ")}`, {
      code: "E_VALIDATION_FAILED",
    });
  }
}

/** What `defineModel` needs. */
export interface ModelOptions<S extends z.ZodObject> {
  /** The table, e.g. `widgets`. */
  table: string;
  /** The writable fields and their rules, e.g. `z.object({ title: z.string().trim().min(1) })`. */
  schema: S;
  /** The name used in messages (`widget not found: ...`); default: the table name singularized. */
  name?: string;
  /**
   * A field `validate` gets that the schema does not know: `log` it (the default in development,
   * as Rails' "Unpermitted parameter"), refuse the input with a 422 naming it (`error`), or
   * `ignore` it (the default elsewhere).
   */
  unpermitted?: UnpermittedFields;
  /**
   * Fields no two records may share (give them a unique index in the migration:
   * `t.string("isbn").unique()`), or no two records of one scope (Rails' `uniqueness: { scope:
   * :user_id }`: `{ field: "name", scope: "user_id" }`, the index on both columns:
   * `t.string("name").unique({ scope: "user_id" })`). `create` and `update` look for a record
   * holding the value (within the record's scope) first, and a value a concurrent write took
   * first is refused alike by the index: a 422 with `errors.<field>` "Isbn has already been
   * taken.", never a database error.
   *
   * @example
   * defineModel({ table: "books", schema, unique: ["isbn"] });
   * defineModel({ table: "projects", schema, unique: [{ field: "name", scope: "user_id" }] });
   */
  unique?: readonly UniqueField<keyof z.output<S> & string>[];
  /**
   * Foreign keys and the tables they point to: `create` and `update` check that the row exists,
   * else a 422 with `errors.<field>` "Author must exist." (a row deleted meanwhile is refused
   * alike by the foreign key). With `ownedBy`, the row must also have this record's owner (its
   * `user_id` equal to this record's `user_id`): another user's row answers as a missing one,
   * so a user cannot point their records at someone else's.
   *
   * @example
   * defineModel({ table: "books", schema, references: { author_id: "authors" } });
   * defineModel({ table: "tasks", schema, references: { project_id: { table: "projects", ownedBy: "user_id" } } });
   */
  references?: {
    readonly [K in keyof z.output<S> & string]?: Reference<keyof z.output<S> & string>;
  };
  /**
   * Who may fetch the files of its attachment fields. Default: `private` when a resource of the
   * model needs a sign-in (`ownedBy`, `authenticate`, or nested in an owned resource), else
   * public. Private files are served only through URLs signed with the app's secret that expire
   * after an hour or so; public files by a URL that never changes, cached for a year.
   *
   * @example
   * defineModel({ table: "avatars", schema, files: "public" }); // owned, shown to everyone
   */
  files?: "private" | "public";
}

/**
 * A `unique` entry of a model: a field no two records share, or one no two records of the same
 * scope share (`{ field: "name", scope: "user_id" }`: each user's project names are unique).
 */
export type UniqueField<F extends string = string> =
  | F
  | { readonly field: F; readonly scope: F | readonly F[] };

/**
 * A `references` entry of a model: the table a foreign key points to, or the table and the owner
 * column the row must share with the record (`{ table: "projects", ownedBy: "user_id" }`).
 */
export type Reference<F extends string = string> =
  | string
  | { readonly table: string; readonly ownedBy?: F };

/** A model's reference as it checks it: the table, and the owner column both rows share, if any. */
export interface CheckedReference {
  readonly table: string;
  readonly ownedBy?: string;
}

/**
 * Column values a query keeps to, `{ user_id: "0190…" }`: an owned resource's `c.ownerScope()`.
 * An empty object keeps every row.
 */
export type RecordScope = Readonly<Record<string, string>>;

/** The helpers of one table; see `defineModel`. */
export interface Model<S extends z.ZodObject> {
  readonly name: string;
  readonly table: string;
  readonly schema: S;
  /** The foreign keys it checks, by column (`references`, each as an object). */
  readonly references: Readonly<Record<string, CheckedReference>>;
  /**
   * Checks attributes against the schema; errors use Buffalo's wording, keyed by field. Fields the
   * schema does not know are dropped, logged in development or refused (`unpermitted`).
   * @param input - the submitted attributes (a parsed form or JSON body)
   * @returns `{ ok: true, data }` with the schema's output, or `{ ok: false, errors }` keyed by
   *   field; never throws for bad input
   * @example
   * const result = Widget.validate(await c.req.parseBody());
   * if (!result.ok) return c.respond(422, { json: result.errors });
   */
  validate(input: unknown): Validated<z.output<S>>;
  /**
   * `select * from <table>` to refine (where, orderBy) and run, or hand to `paginate`; with a
   * `scope`, only its rows (`Note.query(tx, c.ownerScope())`).
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param scope - column values the rows must have (`c.ownerScope()`)
   * @returns Kysely's select query builder; nothing runs until it is executed
   * @example
   * // literalLimit (wisent/db) writes the LIMIT into the SQL: SQLite plans a bound one again each run.
   * const recent = await Widget.query(tx).orderBy("created_at", "desc").limit(literalLimit(5)).execute();
   */
  query(db: Queryable, scope?: RecordScope): SelectQueryBuilder<AnyDB, AnyDB, ModelRecord<S>>;
  /**
   * The record with this id; 404 `<name> not found: <id>` when it is missing, the id is malformed
   * or, with a `scope`, the record is outside it (another user's answers as a missing one).
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param id - the record's id, usually `c.req.param("widget_id")`
   * @param scope - column values the record must have (`c.ownerScope()`)
   * @returns the record, its attachment fields read as `StoredAttachment`s
   * @throws HttpError 404 (`E_HTTP`) `<name> not found: <id>` when there is no such record in
   *   the scope, or the id is no UUID
   * @example const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
   */
  find(db: Queryable, id: string, scope?: RecordScope): Promise<ModelRecord<S>>;
  /**
   * Every record, oldest first (UUIDv7 ids sort by creation). For a list a client asks for, use
   * `paginate`.
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @returns all rows of the table
   */
  all(db: Queryable): Promise<ModelRecord<S>[]>;
  /**
   * One page of records, oldest first, from `page`/`per_page` parameters or an `after`/`before`
   * cursor (keyset by id); see `paginate` for the counting of long tables. With a `scope`, of
   * its rows only (`Note.paginate(tx, c.req.query(), c.ownerScope())`).
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param params - the request's query parameters (`c.req.query()`): `page`, `per_page`,
   *   `after`, `before`
   * @param scope - column values the rows must have (`c.ownerScope()`)
   * @returns the page's rows and its paginator (send it with `paginationHeaders`)
   * @throws HttpError 400 (`E_HTTP`) for both `after` and `before`, a cursor with `page`, a
   *   cursor that is not one of this list's, or a `page` deeper than the offset limit on a list
   *   too long to count
   * @example const { rows, paginator } = await Widget.paginate(tx, c.req.query());
   */
  paginate(
    db: Queryable,
    params: PageParams,
    scope?: RecordScope,
  ): Promise<Paginated<ModelRecord<S>>>;
  /**
   * Validates, checks the `unique` fields and the `references`, then inserts with a new UUIDv7
   * id and both timestamps; returns the record. Fields the schema does not know are left out as
   * zod's object schemas leave them out (the `unpermitted` option applies to `validate`,
   * `tryCreate` and `tryUpdate` only).
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param attrs - the attributes, as the schema takes them
   * @returns the stored record, with its `id`, `created_at` and `updated_at`
   * @throws ValidationFailedError (`E_VALIDATION_FAILED`, a 422 with `errors` by field) for
   *   invalid attributes, a taken unique value or a missing parent, also when the database's
   *   constraints refuse the row
   * @example const widget = await Widget.create(tx, { title: "Sprocket" });
   */
  create(db: Queryable, attrs: z.input<S>): Promise<ModelRecord<S>>;
  /**
   * `validate` and `create` in one, answering instead of throwing: the created record, or the
   * errors keyed by field (schema, unique values, references, and what the database's
   * constraints refused), which a handler shows in its 422.
   *
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param input - the submitted attributes, unchecked (a parsed form or JSON body)
   * @returns `{ ok: true, data }` with the stored record, or `{ ok: false, errors }` keyed by
   *   field; a database error other than a refused constraint is thrown as the driver's
   * @example
   * const saved = await Book.tryCreate(tx, { ...input, author_id: author.id });
   * if (!saved.ok) return c.respond(422, { json: saved.errors, xml: saved.errors, html: ... });
   * return c.respond(201, { json: saved.data, xml: saved.data });
   */
  tryCreate(db: Queryable, input: unknown): Promise<Validated<ModelRecord<S>>>;
  /**
   * Merges the attributes onto the record, validates, checks the `unique` fields and
   * `references` that change, saves with a new `updated_at`; returns it.
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param record - the record as read (`find`)
   * @param attrs - the attributes to change
   * @returns the record with the changes and its new `updated_at`
   * @throws ValidationFailedError (`E_VALIDATION_FAILED`, a 422 with `errors` by field) for
   *   invalid attributes, a taken unique value or a missing parent
   * @example await Widget.update(tx, widget, { title: "Gear" });
   */
  update(
    db: Queryable,
    record: ModelRecord<S>,
    attrs: Partial<z.input<S>>,
  ): Promise<ModelRecord<S>>;
  /**
   * `update` answering instead of throwing: the input's fields merged onto the record,
   * validated and checked as `tryCreate` does; the updated record or the errors.
   *
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param record - the record as read (`find`)
   * @param input - the submitted fields, unchecked
   * @returns `{ ok: true, data }` with the updated record, or `{ ok: false, errors }` keyed by
   *   field
   * @example
   * const saved = await Book.tryUpdate(tx, book, input);
   */
  tryUpdate(
    db: Queryable,
    record: ModelRecord<S>,
    input: unknown,
  ): Promise<Validated<ModelRecord<S>>>;
  /**
   * Deletes the record; returns it as it was. When rows of another table point to it through a
   * foreign key that restricts deletes (the generator's default), nothing is deleted and it
   * throws {@link DependentRecordsError}, a 409 naming them: "Author has 11 books." The
   * record's stored files are deleted with it.
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param record - the record as read (`find`)
   * @returns the deleted record
   * @throws DependentRecordsError (`E_DEPENDENT_RECORDS`, a 409 with `dependents`) when rows of
   *   other tables point to it through a restricting foreign key
   * @example await Widget.destroy(tx, widget);
   */
  destroy(db: Queryable, record: ModelRecord<S>): Promise<ModelRecord<S>>;
  /**
   * Each record with its parent attached under `key`, the parents loaded in one query (not one
   * per record): `key` is the foreign key's name without `_id`, `parent` the parent's model.
   *
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param records - the records whose parents to load
   * @param key - the foreign key without `_id` (`author` for `author_id`)
   * @param parent - the parent's model
   * @returns the records, each with its parent under `key` (`null` for a null foreign key)
   * @throws HttpError 500 when a record's foreign key names a parent that does not exist
   * @example
   * const { rows, paginator } = await Book.paginate(tx, c.req.query());
   * const books = await Book.preload(tx, rows, "author", Author);
   * books[0]?.author.name; // two queries for the page, whatever its size
   */
  preload<K extends ParentKey<ModelRecord<S>>, P extends z.ZodObject, R extends ModelRecord<S>>(
    db: Queryable,
    records: readonly R[],
    key: K,
    parent: Model<P>,
  ): Promise<WithParent<R, K, ModelRecord<P>>[]>;
  /**
   * The records pointing to each of `parents` through `column`, in one query, grouped by the
   * parent's id (every parent has an entry, empty when it has none), oldest first.
   *
   * @param db - the database or a transaction (in a handler, `await c.tx()`)
   * @param column - the foreign key column (`author_id`)
   * @param parents - the parent records (anything with an `id`)
   * @returns each parent's id mapped to its records
   * @example
   * const booksOf = await Book.byParent(tx, "author_id", authors);
   * booksOf.get(author.id); // Book[]
   */
  byParent(
    db: Queryable,
    column: ForeignKeyColumn<ModelRecord<S>>,
    parents: readonly { readonly id: string }[],
  ): Promise<Map<string, ModelRecord<S>[]>>;
}

/** `where id in (...)` lists at most this many values (a page is at most 100 rows). */
const IN_CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += IN_CHUNK) out.push(list.slice(i, i + IN_CHUNK));
  return out;
}

function isPlainObject(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** JSON documents go to the driver as text: pg would turn an array into a PostgreSQL array. */
function toRow(values: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    row[key] = isPlainObject(value) || Array.isArray(value) ? JSON.stringify(value) : value;
  }
  return row;
}

/**
 * A model's table, or the rows of a scope of it, as a list `readList` pages through, by id (one
 * object per list request).
 */
class TableList<Rec> implements ListSource<Rec> {
  readonly keys = 1;

  constructor(
    private readonly statements: ModelStatements,
    private readonly db: Queryable,
    private readonly scope: Scope | undefined,
  ) {}

  /** Built only when the list is long enough to need counting (most list requests never ask). */
  get sizeKey(): string {
    const { table } = this.statements;
    return this.scope === undefined ? table : `${table} ${JSON.stringify(this.scope)}`;
  }

  page(limit: number, offset: number): MaybePromise<Rec[]> {
    return this.statements.page(this.db, limit, offset, this.scope) as MaybePromise<Rec[]>;
  }

  walk(param: CursorParam, values: CursorValue[] | undefined, limit: number): MaybePromise<Rec[]> {
    let id: string | undefined;
    if (values !== undefined) {
      id = typeof values[0] === "string" ? uuidKey(values[0]) : undefined;
      if (id === undefined) throw badCursor(param, "not a cursor of this list");
    }
    return this.statements.walk(this.db, param, id, limit, this.scope) as MaybePromise<Rec[]>;
  }

  count(cap: number): MaybePromise<number> {
    return this.statements.cappedCount(this.db, cap, this.scope);
  }

  wholeCount(cap: number): number | undefined {
    return this.scope === undefined ? this.statements.wholeCount(this.db, cap) : undefined;
  }

  estimate(): MaybePromise<number | undefined> {
    return this.statements.estimate(this.db, this.scope);
  }

  cursorOf(row: Rec): string {
    return encodeCursor([(row as { id: string }).id]);
  }
}

/** A `unique` entry with its scope as a list (empty: unique across the table). */
interface UniqueRule {
  readonly field: string;
  readonly scope: readonly string[];
}

/** The model's `unique` entries, each field and scope column one the schema knows. */
function uniqueFieldsOf(
  model: string,
  known: ReadonlySet<string>,
  entries: readonly UniqueField[],
): UniqueRule[] {
  return entries.map((entry) => {
    const rule =
      typeof entry === "string"
        ? { field: entry, scope: [] }
        : { field: entry.field, scope: [entry.scope].flat() };
    for (const column of [rule.field, ...rule.scope]) {
      if (!known.has(column)) {
        throw new WisentError(
          "E_APP_MISCONFIGURED",
          `${model}: unique names "${column}", which is not a field of the schema`,
        );
      }
    }
    return rule;
  });
}

/** The model's `references`, each as an object; an `ownedBy` column must be a field of the schema. */
function referencesOf(
  model: string,
  known: ReadonlySet<string>,
  entries: Readonly<Record<string, Reference | undefined>>,
): Record<string, CheckedReference> {
  const checked: Record<string, CheckedReference> = {};
  for (const [field, entry] of Object.entries(entries)) {
    if (entry === undefined) continue;
    const reference = typeof entry === "string" ? { table: entry } : entry;
    if (reference.ownedBy !== undefined && !known.has(reference.ownedBy)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `${model}: references.${field} is ownedBy "${reference.ownedBy}", which is not a field of the schema (the record's own owner column)`,
      );
    }
    checked[field] = reference;
  }
  return checked;
}

/**
 * Defines the helpers of one table: find-or-404, validation with zod, create/update with ids and
 * timestamps managed, destroy returning the deleted row, pagination.
 *
 * @param options - the table, the schema of its writable fields, and the `unique` fields and
 *   `references` to check on writes (see {@link ModelOptions})
 * @returns the model: its helpers take the database or transaction as their first argument
 * @example
 * export const Widget = defineModel({
 *   table: "widgets",
 *   schema: z.object({ title: z.string().trim().min(1), description: z.string().nullable().default(null) }),
 * });
 * export type Widget = RecordOf<typeof Widget>;
 *
 * const widget = await Widget.find(await c.tx(), c.req.param("widget_id"));
 */
export function defineModel<S extends z.ZodObject>(options: ModelOptions<S>): Model<S> {
  const { table, schema } = options;
  const name = options.name ?? singularize(table);
  const fields = Object.keys(schema.shape);
  const known = new Set(fields);
  type Rec = ModelRecord<S>;
  // Attachment fields (`attachment()` rules): their columns are read as StoredAttachments and
  // their uploads stored on save. None for most models, which then run none of this.
  const files = attachmentFieldsOf(schema);
  const withFiles = files.length > 0;
  const modelFiles: ModelFiles = {
    table,
    fields: files,
    declared: options.files,
    private: options.files === "private",
  };
  // The row of a write without its attachment fields: saveWithAttachments gives their columns.
  const rowWithoutFiles = (values: Record<string, unknown>) => {
    const row = toRow(values);
    for (const [field] of files) delete row[field];
    return row;
  };
  // Decimal fields (`decimal()` rules): read back as exact text with their scale on every
  // database (SQLite returns numbers).
  const decimals = decimalFieldsOf(schema);
  // Columns whose stored form is not the record's: none for most models, which skip this.
  const readsColumns = withFiles || decimals.length > 0;
  const readStored = <Row>(row: Row): Row => {
    if (withFiles) readAttachments(row, files);
    return decimals.length > 0 ? readDecimals(row, decimals) : row;
  };
  const columnsPlugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      for (const row of args.result.rows) readStored(row);
      return args.result;
    },
  };

  const checked = (input: unknown): z.output<S> => {
    const result = validate(schema, input);
    if (!result.ok) throw new ValidationFailedError(name, result.errors);
    return result.data;
  };
  const query = (db: Queryable, scope?: RecordScope) => {
    const all = db.selectFrom(table).selectAll();
    let select = (readsColumns
      ? all.withPlugin(columnsPlugin)
      : all) as unknown as SelectQueryBuilder<AnyDB, AnyDB, Rec>;
    for (const column in scope) select = select.where(column, "=", scope[column]!);
    return select;
  };
  // An empty scope keeps every row: the whole table's statements.
  const kept = (scope: RecordScope | undefined): Scope | undefined =>
    scope !== undefined && Object.keys(scope).length > 0 ? scope : undefined;
  // Every request runs these: compiled once (per dialect and column list), parameters swapped.
  const statements = new ModelStatements(table);
  const foundOr404 = (rows: unknown[], id: string): Rec => {
    if (rows.length === 0) throw notFound(id);
    return (readsColumns ? readStored(rows[0]) : rows[0]) as Rec;
  };
  const notFound = (id: string) =>
    new HttpError(404, `${name} not found: ${id.length > 100 ? `${id.slice(0, 100)}...` : id}`);
  const validateInput = (input: unknown): Validated<z.output<S>> => {
    const refused = checkUnpermitted(unpermittedFields(input, known), name, options.unpermitted);
    return refused ? { ok: false, errors: refused } : validate(schema, input);
  };
  const unique = uniqueFieldsOf(name, known, options.unique ?? []);
  const checkedReferences = referencesOf(name, known, options.references ?? {});
  const references = Object.entries(checkedReferences);
  const taken = (field: string) => `${humanizeField(field)} has already been taken.`;
  const missing = (field: string) => `${humanizeField(field)} must exist.`;

  /**
   * The unique values other records hold (within the record's scope) and the parents that do
   * not exist or, for a reference with `ownedBy`, belong to another owner (only what changes, on
   * an update): one indexed lookup each.
   */
  const constraintErrors = async (
    db: Queryable,
    data: Record<string, unknown>,
    before?: Record<string, unknown> & { id: string },
  ): Promise<ValidationErrors | undefined> => {
    let errors: ValidationErrors | undefined;
    const same = (columns: readonly string[]) =>
      before !== undefined && columns.every((c) => before[c] === data[c]);
    for (const { field, scope } of unique) {
      const value = data[field];
      if (value === null || value === undefined || same([field, ...scope])) continue;
      // A unique index takes NULLs as distinct: a record without a scope value shares with none.
      if (scope.some((column) => data[column] === null || data[column] === undefined)) continue;
      let lookup = db
        .selectFrom(table)
        .select("id")
        .where(field as string, "=", value as string);
      for (const column of scope) lookup = lookup.where(column, "=", data[column] as string);
      if (before) lookup = lookup.where("id", "<>", before.id);
      if (await lookup.executeTakeFirst()) {
        errors = ValidationErrors.adding(errors, field, taken(field));
      }
    }
    for (const [field, reference] of references) {
      const value = data[field];
      const owner = reference.ownedBy;
      if (value === null || value === undefined) continue;
      if (same(owner === undefined ? [field] : [field, owner])) continue;
      let lookup = db.selectFrom(reference.table).select("id").where("id", "=", value);
      if (owner !== undefined) {
        const ownerId = data[owner];
        // No owner to share: no row can be this record's owner's.
        if (ownerId === null || ownerId === undefined) {
          errors = ValidationErrors.adding(errors, field, missing(field));
          continue;
        }
        lookup = lookup.where(owner, "=", ownerId);
      }
      if (!(await lookup.executeTakeFirst())) {
        errors = ValidationErrors.adding(errors, field, missing(field));
      }
    }
    return errors;
  };

  /**
   * The field a unique index's error names: the `unique` entry whose columns it names (the
   * field, not its scope), else by column, else by the index's name (MySQL names only the index:
   * `books_isbn_idx` as `t.string("isbn").unique()` makes it, `projects_user_id_name_idx` as
   * `.unique({ scope: "user_id" })` does, or the column).
   */
  const takenField = (columns: readonly string[], index: string | undefined) => {
    for (const { field, scope } of unique) {
      const indexed = [...scope, field];
      if (columns.length === indexed.length && indexed.every((c) => columns.includes(c))) {
        return field;
      }
      if (index !== undefined && (index === indexName(table, indexed) || index === field)) {
        return field;
      }
    }
    // Several columns: the scope goes first by convention, the field last.
    const column = columns.findLast((c) => known.has(c)) ?? columns.at(-1);
    if (column) return column;
    if (index !== undefined) {
      // `<table>_<columns>_idx` ends with its last column: the field, after any scope.
      const longestFirst = (a: string, b: string) => b.length - a.length;
      const last = fields.filter((f) => index === f || index.endsWith(`_${f}_idx`));
      if (last.length > 0) return last.sort(longestFirst)[0];
      const within = fields.filter((f) => index.includes(f)).sort(longestFirst);
      if (within[0]) return within[0];
    }
    return unique.length === 1 ? unique[0]!.field : undefined;
  };

  /** A write the database's constraints refused, as the errors `constraintErrors` gives. */
  const refusedWrite = async (
    db: Queryable,
    error: unknown,
    row: Record<string, unknown>,
  ): Promise<ValidationErrors | undefined> => {
    const violation = constraintViolation(error);
    if (!violation || violation.kind === "referenced") return undefined;
    const errors = new ValidationErrors();
    if (violation.kind === "unique") {
      const field = takenField(violation.columns, violation.index);
      errors.add(field ?? "base", field ? taken(field) : "A value has already been taken.");
      return errors;
    }
    // SQLite does not say which foreign key: its catalog does (its transaction is still usable).
    const columns =
      violation.columns.length > 0 ? violation.columns : await missingParentColumns(db, table, row);
    const field = columns[0] ?? (references.length === 1 ? references[0]![0] : undefined);
    errors.add(field ?? "base", field ? missing(field) : "A referenced record does not exist.");
    return errors;
  };

  const insertChecked = async (
    db: Queryable,
    data: z.output<S>,
  ): Promise<Validated<ModelRecord<S>>> => {
    const errors = await constraintErrors(db, data as Record<string, unknown>);
    if (errors) return { ok: false, errors };
    const now = new StoredDate(Date.now());
    const record = { ...data, id: uuidv7(now.getTime()), created_at: now, updated_at: now };
    let saved: Record<string, unknown> = record;
    try {
      // A refused insert (a unique index the model does not know, a race) answers 422, and the
      // request's transaction must stay usable after it.
      await inWriteSavepoint(db, async () => {
        if (!withFiles) await statements.insert(db, toRow(record));
        else {
          // Stores the uploads, then inserts with their columns; a failed insert removes them.
          saved = await saveWithAttachments(db, modelFiles, record.id, record, undefined, (c) =>
            statements.insert(db, { ...rowWithoutFiles(record), ...c }),
          );
        }
      });
    } catch (error) {
      const refused = await refusedWrite(db, error, record);
      if (refused) return { ok: false, errors: refused };
      throw error;
    }
    noteWrite(db, table, "created", saved as Rec);
    return { ok: true, data: saved as Rec };
  };

  const updateChecked = async (
    db: Queryable,
    record: Rec,
    data: z.output<S>,
  ): Promise<Validated<ModelRecord<S>>> => {
    const before = record as unknown as Record<string, unknown> & { id: string };
    const errors = await constraintErrors(db, data as Record<string, unknown>, before);
    if (errors) return { ok: false, errors };
    const changes = { ...data, updated_at: new StoredDate(Date.now()) };
    let saved: Record<string, unknown> = changes;
    try {
      await inWriteSavepoint(db, async () => {
        if (!withFiles) await statements.update(db, record.id, toRow(changes));
        else {
          // Stores new uploads; the replaced files go after the commit, new ones on a failure.
          saved = await saveWithAttachments(
            db,
            modelFiles,
            record.id,
            changes,
            currentFields(record),
            (columns) =>
              statements.update(db, record.id, { ...rowWithoutFiles(changes), ...columns }),
          );
        }
      });
    } catch (error) {
      const refused = await refusedWrite(db, error, changes);
      if (refused) return { ok: false, errors: refused };
      throw error;
    }
    const updated = { ...record, ...saved } as Rec;
    noteWrite(db, table, "updated", updated);
    return { ok: true, data: updated };
  };

  /**
   * Runs `save` with the files code gave the input (a Blob, a stream, a `file:` URL) read and
   * typed as uploads are; their temporary copies are deleted once it is done (the storage has
   * its own copy of each one saved). A model without attachments runs `save` as it is.
   */
  const withFilesFromCode = async <T>(
    input: unknown,
    save: (input: unknown) => Promise<T>,
  ): Promise<T> => {
    if (!withFiles) return save(input);
    const temporary: string[] = [];
    try {
      return await save(await readFilesFromCode(input, files, temporary));
    } finally {
      if (temporary.length > 0) await discardTemporaryFiles(temporary);
    }
  };

  const currentFields = (record: Rec): Record<string, unknown> => {
    const current: Record<string, unknown> = {};
    for (const field of fields) current[field] = (record as Record<string, unknown>)[field];
    return current;
  };

  const model: Model<S> = {
    name,
    table,
    schema,
    references: checkedReferences,
    validate: validateInput,
    query,
    // find and paginate settle in one promise (no async function around a SQLite read that
    // is ready at once): they run on every show and list request.
    find(db, id, scope) {
      let key: string;
      let rows: MaybePromise<unknown[]>;
      try {
        key = String(id);
        const stored = uuidKey(key);
        if (stored === undefined) throw notFound(key);
        rows = statements.find(db, stored, kept(scope));
      } catch (error) {
        return Promise.reject(error);
      }
      // No closure per call: every show runs this.
      return settleWith(rows, foundOr404, key);
    },
    all: async (db) => (await query(db).orderBy("id").execute()) as Rec[],
    paginate(db, params, scope) {
      const page = settle(() =>
        readList(new TableList<Rec>(statements, db, kept(scope)), listRequest(params)),
      );
      if (!readsColumns) return page;
      return page.then((found) => {
        for (const row of found.rows) readStored(row);
        return found;
      });
    },
    create(db, attrs) {
      return withFilesFromCode(attrs, async (input) => {
        const saved = await insertChecked(db, checked(input));
        if (!saved.ok) throw new ValidationFailedError(name, saved.errors);
        return saved.data;
      });
    },
    tryCreate(db, given) {
      return withFilesFromCode(given, async (input) => {
        const result = validateInput(input);
        return result.ok ? insertChecked(db, result.data) : result;
      });
    },
    update(db, record, attrs) {
      return withFilesFromCode(attrs, async (input) => {
        const merged = { ...currentFields(record), ...(input as object) };
        const saved = await updateChecked(db, record, checked(merged));
        if (!saved.ok) throw new ValidationFailedError(name, saved.errors);
        return saved.data;
      });
    },
    tryUpdate(db, record, given) {
      return withFilesFromCode(given, async (input) => {
        const refused = checkUnpermitted(
          unpermittedFields(input, known),
          name,
          options.unpermitted,
        );
        if (refused) return { ok: false, errors: refused };
        const merged =
          input !== null && typeof input === "object"
            ? { ...currentFields(record), ...input }
            : input;
        const result = validate(schema, merged);
        return result.ok ? updateChecked(db, record, result.data) : result;
      });
    },
    async destroy(db, record) {
      try {
        // The transaction stays usable to count the dependents and to answer (a flash, a page)
        // after a refused delete.
        await inWriteSavepoint(db, () => statements.destroy(db, record.id));
      } catch (error) {
        // On a delete, a foreign key error (SQLite's does not say which side) means rows point here.
        const violation = constraintViolation(error);
        if (!violation || violation.kind === "unique") throw error;
        throw new DependentRecordsError(name, await dependentsOf(db, table, record.id));
      }
      if (withFiles) {
        await deleteAttachmentsOf(
          db,
          modelFiles,
          record as unknown as Record<string, unknown> & { id: string },
        );
      }
      noteWrite(db, table, "destroyed", record);
      return record;
    },
    async preload(db, records, key, parent) {
      const column = `${key}_id`;
      const ids = [
        ...new Set(
          records
            .map((r) => (r as Record<string, unknown>)[column])
            .filter((id): id is string => typeof id === "string"),
        ),
      ];
      const byId = new Map<string, unknown>();
      for (const part of chunks(ids)) {
        for (const row of await parent.query(db).where("id", "in", part).execute()) {
          byId.set(row.id, row);
        }
      }
      return records.map((r) => {
        const id = (r as Record<string, unknown>)[column];
        const found = typeof id === "string" ? byId.get(id) : undefined;
        if (typeof id === "string" && found === undefined) {
          throw new HttpError(500, `${parent.name} not found: ${id} (${name}.${column})`);
        }
        return { ...r, [key]: found ?? null };
      }) as WithParent<(typeof records)[number], typeof key, never>[];
    },
    async byParent(db, column, parents) {
      const grouped = new Map<string, Rec[]>();
      for (const parent of parents) grouped.set(parent.id, []);
      for (const part of chunks([...grouped.keys()])) {
        const rows = (await db
          .selectFrom(table)
          .selectAll()
          .where(column as string, "in", part)
          .orderBy("id")
          .execute()) as Rec[];
        for (const row of rows) {
          grouped.get(String((row as Record<string, unknown>)[column]))?.push(readStored(row));
        }
      }
      return grouped;
    },
  };
  if (withFiles) registerModelFiles(model, modelFiles);
  return model;
}
