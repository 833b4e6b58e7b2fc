import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import type { z } from "zod";
import { appStorage } from "../storage/app-storage.js";
import { attachmentRuleOf } from "../storage/attachment-rule.js";
import { isFileSource, uploadedFileFrom } from "../storage/file-from-code.js";
import { PRIVATE_FOLDER, StoredAttachment } from "../storage/stored-attachment.js";
import { UploadedFile } from "../storage/uploaded-file.js";
import type { Queryable } from "./queryable.js";
import { afterCommit, afterRollback } from "./transaction-hooks.js";

/** A model's attachment fields: name and whether it holds several files. */
export type AttachmentFields = ReadonlyArray<readonly [string, boolean]>;

/**
 * How a model keeps its files: its table, its attachment fields, and whether new files go to the
 * private folder (served only by signed URLs that expire).
 */
export interface ModelFiles {
  readonly table: string;
  readonly fields: AttachmentFields;
  /** The model's own word (`defineModel({ files })`), which a resource's declaration never overrides. */
  readonly declared: "private" | "public" | undefined;
  /** Whether files it stores from now on are private: declared so, or marked by {@link keepFilesPrivate}. */
  private: boolean;
}

const MODEL_FILES = new WeakMap<object, ModelFiles>();

/** Records how `model` keeps its files (defineModel does, for a model with attachment fields). */
export function registerModelFiles(model: object, files: ModelFiles): void {
  MODEL_FILES.set(model, files);
}

/**
 * Makes the files `model` stores from now on private, unless the model declares them public:
 * the App does so for the model of a resource whose records only signed-in users may see.
 * Returns whether the model's files are private (false for a model without attachments).
 *
 * @example
 * keepFilesPrivate(Photo); // true: Photo has an attachment field
 */
export function keepFilesPrivate(model: unknown): boolean {
  const files = typeof model === "object" && model !== null ? MODEL_FILES.get(model) : undefined;
  if (!files || files.declared === "public") return false;
  files.private = true;
  return true;
}

/** The attachment fields of a model's schema (empty for most models: then nothing here runs). */
export function attachmentFieldsOf(schema: z.ZodObject): AttachmentFields {
  const fields: [string, boolean][] = [];
  for (const [name, field] of Object.entries(schema.shape)) {
    const rule = attachmentRuleOf(field);
    if (rule) fields.push([name, rule.many]);
  }
  return fields;
}

/** A row as read from the database, its attachment columns made {@link StoredAttachment}s. */
export function readAttachments<Row>(row: Row, fields: AttachmentFields): Row {
  const record = row as Record<string, unknown>;
  for (const [name, many] of fields) {
    const value = record[name];
    if (value instanceof StoredAttachment) continue;
    if (many) {
      const list = typeof value === "string" ? safeParse(value) : value;
      record[name] = Array.isArray(list)
        ? list.map((item) => StoredAttachment.fromColumn(item)).filter((item) => item !== undefined)
        : [];
    } else {
      record[name] = StoredAttachment.fromColumn(value) ?? null;
    }
  }
  return row;
}

/**
 * The input with the files code gave its attachment fields (a `Blob`/`File`, a stream, a `file:`
 * URL) read into temporary files, hashed and typed from their bytes as uploads are, so that the
 * rule checks them alike; the input itself when it holds none. Each temporary file's path goes
 * into `temporary`, for the caller to delete once the record is saved (or refused).
 */
export async function readFilesFromCode(
  input: unknown,
  fields: AttachmentFields,
  temporary: string[],
): Promise<unknown> {
  if (input === null || typeof input !== "object") return input;
  const record = input as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  const read = (value: unknown) =>
    isFileSource(value) ? uploadedFileFrom(value, temporary) : value;
  for (const [name] of fields) {
    const value = record[name];
    if (Array.isArray(value) ? value.some(isFileSource) : isFileSource(value)) {
      copy ??= { ...record };
      copy[name] = Array.isArray(value) ? await Promise.all(value.map(read)) : await read(value);
    }
  }
  return copy ?? input;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function keysOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item) => item instanceof StoredAttachment).map((item) => item.key);
}

/**
 * Stores one upload under a new key, named by its type's extension (from its bytes), in the
 * private folder for a model whose files are private.
 */
async function store(file: UploadedFile, files: ModelFiles): Promise<StoredAttachment> {
  const key = `${files.private ? PRIVATE_FOLDER : ""}${randomUUID()}.${file.extension}`;
  await appStorage().put(key, createReadStream(file.path), {
    contentType: file.type,
    size: file.size,
  });
  return new StoredAttachment(key, file.name, file.type, file.size, file.checksum);
}

/** Deletes stored files and their image variants, logging (never throwing) a failure: an orphan is for `storage prune`. */
async function deleteKeys(keys: readonly string[]): Promise<void> {
  const storage = appStorage();
  await Promise.all(
    keys.map((key) =>
      storage.deleteUpload(key).catch((error: unknown) => {
        console.error(`could not delete stored file ${key}:`, error);
      }),
    ),
  );
}

/** The keys the attachment columns of `row` (as read from the database) name. */
function keysInRow(
  row: Record<string, unknown> | undefined,
  fields: AttachmentFields,
): Set<string> {
  const keys = new Set<string>();
  if (!row) return keys;
  readAttachments(row, fields);
  for (const [name] of fields) for (const key of keysOf(row[name])) keys.add(key);
  return keys;
}

/**
 * Deletes those of `keys` that the committed row `id` no longer names (all of them when it is
 * gone), read outside the transaction that replaced them: a concurrent write that committed
 * after it (or a later write in the same transaction) may have put a file back.
 */
async function deleteUnlessNamed(
  database: Queryable | undefined,
  files: ModelFiles,
  id: string,
  keys: readonly string[],
): Promise<void> {
  let named = new Set<string>();
  if (database) {
    const row = await database
      .selectFrom(files.table)
      .select(files.fields.map(([name]) => name))
      .where("id", "=", id)
      .executeTakeFirst();
    named = keysInRow(row as Record<string, unknown> | undefined, files.fields);
  }
  await deleteKeys(keys.filter((key) => !named.has(key)));
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

/**
 * Saves the record `id` with its uploads: stores each uploaded file, then runs `write` with the
 * column values; a failed write deletes what was stored at once, a rolled-back transaction
 * afterwards. On an update (`previous`, the record as read), only the attachment columns whose
 * files change are written, so that a write that did not touch a file never puts back the one
 * a concurrent request replaced; after the commit, the files the record no longer holds are
 * deleted if the committed row does not name them. Returns the data with
 * {@link StoredAttachment}s in place of the uploads.
 */
export async function saveWithAttachments<T extends Record<string, unknown>>(
  db: Queryable,
  files: ModelFiles,
  id: string,
  data: T,
  previous: Record<string, unknown> | undefined,
  write: (columns: Record<string, unknown>) => Promise<unknown>,
): Promise<T> {
  const { fields } = files;
  const stored: string[] = [];
  const saved: Record<string, unknown> = { ...data };
  const columns: Record<string, unknown> = {};
  try {
    for (const [name, many] of fields) {
      if (!(name in data)) continue;
      const value = data[name];
      const list = many ? (value as unknown[]) : [value];
      const made: (StoredAttachment | null)[] = [];
      for (const item of list) {
        if (item instanceof UploadedFile) {
          const attachment = await store(item, files);
          stored.push(attachment.key);
          made.push(attachment);
        } else made.push(item instanceof StoredAttachment ? item : null);
      }
      saved[name] = many ? made.filter((item) => item !== null) : made[0];
      if (previous && sameKeys(keysOf(saved[name]), keysOf(previous[name]))) continue;
      columns[name] = many
        ? JSON.stringify(made.flatMap((item) => (item ? [item.toColumn()] : [])))
        : made[0]
          ? JSON.stringify(made[0].toColumn())
          : null;
    }
    await write(columns);
  } catch (error) {
    await deleteKeys(stored);
    throw error;
  }
  if (stored.length > 0) afterRollback(db, () => deleteKeys(stored));
  if (previous) {
    const kept = new Set(fields.flatMap(([name]) => keysOf(saved[name])));
    const replaced = fields
      .flatMap(([name]) => keysOf(previous[name]))
      .filter((key) => !kept.has(key));
    if (replaced.length > 0) {
      await afterCommit(db, (database) => deleteUnlessNamed(database, files, id, replaced));
    }
  }
  return saved as T;
}

/**
 * After a record is destroyed: its files are deleted once the transaction commits, those the
 * committed row (if any: a rolled-back savepoint, a concurrent write) does not name.
 */
export async function deleteAttachmentsOf(
  db: Queryable,
  files: ModelFiles,
  record: Record<string, unknown> & { id: string },
): Promise<void> {
  const keys = files.fields.flatMap(([name]) => keysOf(record[name]));
  if (keys.length > 0) {
    await afterCommit(db, (database) => deleteUnlessNamed(database, files, record.id, keys));
  }
}
