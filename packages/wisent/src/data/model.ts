import type { KyselyPlugin, SelectQueryBuilder } from "kysely";
import type { z } from "zod";
import { HttpError } from "../http/http-error.js";
import type { ValidationErrors } from "../http/validation-errors.js";
import { singularize } from "../naming/inflection.js";
import type { AnyDB } from "./any-db.js";
import { chainWith, type MaybePromise, settleWith } from "./maybe-promise.js";
import {
  attachmentFieldsOf,
  deleteAttachmentsOf,
  readAttachments,
  saveWithAttachments,
} from "./model-attachments.js";
import { ModelStatements } from "./model-statements.js";
import {
  type PageParams,
  type Paginated,
  pageRequest,
  paginatorOf,
  totalShownByPage,
} from "./pagination.js";
import type { Queryable } from "./queryable.js";
import { StoredDate } from "./stored-date.js";
import { checkUnpermitted, type UnpermittedFields, unpermittedFields } from "./unpermitted.js";
import { uuidKey, uuidv7 } from "./uuid.js";
import { type Validated, validate } from "./validation.js";

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

/** Thrown by `create`/`update` when the attributes do not pass the schema: a 422 with the errors. */
export class ValidationFailedError extends HttpError {
  constructor(
    model: string,
    readonly errors: ValidationErrors,
  ) {
    super(422, `${model} is invalid: ${Object.values(errors.errors).flat().join(" ")}`);
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
}

/** The helpers of one table; see `defineModel`. */
export interface Model<S extends z.ZodObject> {
  readonly name: string;
  readonly table: string;
  readonly schema: S;
  /**
   * Checks attributes against the schema; errors use Buffalo's wording, keyed by field. Fields the
   * schema does not know are dropped, logged in development or refused (`unpermitted`).
   */
  validate(input: unknown): Validated<z.output<S>>;
  /** `select * from <table>` to refine (where, orderBy) and run, or hand to `paginate`. */
  query(db: Queryable): SelectQueryBuilder<AnyDB, AnyDB, ModelRecord<S>>;
  /** The record with this id; 404 `<name> not found: <id>` when it is missing or the id is malformed. */
  find(db: Queryable, id: string): Promise<ModelRecord<S>>;
  /** Every record, oldest first (UUIDv7 ids sort by creation). */
  all(db: Queryable): Promise<ModelRecord<S>[]>;
  /** One page of records, oldest first, from `page`/`per_page` parameters. */
  paginate(db: Queryable, params: PageParams): Promise<Paginated<ModelRecord<S>>>;
  /** Validates, then inserts with a new UUIDv7 id and both timestamps; returns the record. */
  create(db: Queryable, attrs: z.input<S>): Promise<ModelRecord<S>>;
  /** Merges the attributes onto the record, validates, saves with a new `updated_at`; returns it. */
  update(
    db: Queryable,
    record: ModelRecord<S>,
    attrs: Partial<z.input<S>>,
  ): Promise<ModelRecord<S>>;
  /** Deletes the record; returns it as it was. */
  destroy(db: Queryable, record: ModelRecord<S>): Promise<ModelRecord<S>>;
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

/** One page being read by `paginate`: where, which rows, and (once read) the rows. */
interface PageRead<Rec> {
  readonly db: Queryable;
  readonly page: number;
  readonly perPage: number;
  readonly offset: number;
  rows: Rec[];
}

function pageWithTotal<Rec>(total: number, read: PageRead<Rec>): Paginated<Rec> {
  const { rows } = read;
  return {
    rows,
    paginator: paginatorOf(read.page, read.perPage, read.offset, rows.length, total),
  };
}

/**
 * Defines the helpers of one table: find-or-404, validation with zod, create/update with ids and
 * timestamps managed, destroy returning the deleted row, pagination.
 *
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
  const filesPlugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      for (const row of args.result.rows) readAttachments(row, files);
      return args.result;
    },
  };

  const checked = (input: unknown): z.output<S> => {
    const result = validate(schema, input);
    if (!result.ok) throw new ValidationFailedError(name, result.errors);
    return result.data;
  };
  const query = (db: Queryable) => {
    const select = db.selectFrom(table).selectAll();
    return (withFiles ? select.withPlugin(filesPlugin) : select) as unknown as SelectQueryBuilder<
      AnyDB,
      AnyDB,
      Rec
    >;
  };
  // Every request runs these: compiled once (per dialect and column list), parameters swapped.
  const statements = new ModelStatements(table);
  const foundOr404 = (rows: unknown[], id: string): Rec => {
    if (rows.length === 0) throw notFound(id);
    return (withFiles ? readAttachments(rows[0], files) : rows[0]) as Rec;
  };
  // One page's read, carried through its steps as their argument (no closures per list).
  const pageOf = (found: unknown[], read: PageRead<Rec>): MaybePromise<Paginated<Rec>> => {
    read.rows = found as Rec[];
    if (withFiles) for (const row of read.rows) readAttachments(row, files);
    // As `paginate`: the count query runs only when the page does not show the total.
    const total = totalShownByPage(read.page, read.perPage, read.offset, read.rows.length);
    return total === undefined
      ? chainWith(statements.count(read.db), pageWithTotal, read)
      : pageWithTotal(total, read);
  };
  const notFound = (id: string) =>
    new HttpError(404, `${name} not found: ${id.length > 100 ? `${id.slice(0, 100)}...` : id}`);

  return {
    name,
    table,
    schema,
    validate(input) {
      const refused = checkUnpermitted(unpermittedFields(input, known), name, options.unpermitted);
      return refused ? { ok: false, errors: refused } : validate(schema, input);
    },
    query,
    // find and paginate settle in one promise (no async function around a SQLite read that
    // is ready at once): they run on every show and list request.
    find(db, id) {
      let key: string;
      let rows: MaybePromise<unknown[]>;
      try {
        key = String(id);
        const stored = uuidKey(key);
        if (stored === undefined) throw notFound(key);
        rows = statements.find(db, stored);
      } catch (error) {
        return Promise.reject(error);
      }
      // No closure per call: every show runs this.
      return settleWith(rows, foundOr404, key);
    },
    all: async (db) => (await query(db).orderBy("id").execute()) as Rec[],
    paginate(db, params) {
      let read: PageRead<Rec>;
      let found: MaybePromise<unknown[]>;
      try {
        const { page, per_page, offset } = pageRequest(params);
        read = { db, page, perPage: per_page, offset, rows: [] };
        found = statements.page(db, per_page, offset);
      } catch (error) {
        return Promise.reject(error);
      }
      return settleWith(found, pageOf, read);
    },
    async create(db, attrs) {
      const data = checked(attrs);
      const now = new StoredDate(Date.now());
      const record = { ...data, id: uuidv7(now.getTime()), created_at: now, updated_at: now };
      if (!withFiles) {
        await statements.insert(db, toRow(record));
        return record as Rec;
      }
      return (await saveWithAttachments(db, files, record, undefined, (columns) =>
        statements.insert(db, { ...toRow(record), ...columns }),
      )) as Rec;
    },
    async update(db, record, attrs) {
      const current: Record<string, unknown> = {};
      for (const field of fields) current[field] = (record as Record<string, unknown>)[field];
      const data = checked({ ...current, ...attrs });
      const changes = { ...data, updated_at: new StoredDate(Date.now()) };
      if (!withFiles) {
        await statements.update(db, record.id, toRow(changes));
        return { ...record, ...changes } as Rec;
      }
      const saved = await saveWithAttachments(db, files, changes, current, (columns) =>
        statements.update(db, record.id, { ...toRow(changes), ...columns }),
      );
      return { ...record, ...saved } as Rec;
    },
    async destroy(db, record) {
      await statements.destroy(db, record.id);
      if (withFiles) await deleteAttachmentsOf(db, files, record as Record<string, unknown>);
      return record;
    },
  };
}
