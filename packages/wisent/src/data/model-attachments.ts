import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import type { z } from "zod";
import { appStorage } from "../storage/app-storage.js";
import { attachmentRuleOf } from "../storage/attachment-rule.js";
import { isFileSource, uploadedFileFrom } from "../storage/file-from-code.js";
import { StoredAttachment } from "../storage/stored-attachment.js";
import { UploadedFile } from "../storage/uploaded-file.js";
import type { Queryable } from "./queryable.js";
import { afterCommit, afterRollback } from "./transaction-hooks.js";

/** A model's attachment fields: name and whether it holds several files. */
export type AttachmentFields = ReadonlyArray<readonly [string, boolean]>;

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

/** Stores one upload under a new key, named by its type's extension (from its bytes). */
async function store(file: UploadedFile): Promise<StoredAttachment> {
  const key = `${randomUUID()}.${file.extension}`;
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

/**
 * Saves a record with its uploads: stores each uploaded file, then runs `write` with the column
 * values; a failed write deletes what was stored at once, a rolled-back transaction afterwards;
 * after the commit, the files the record no longer holds (`previous`) are deleted. Returns the
 * data with {@link StoredAttachment}s in place of the uploads.
 */
export async function saveWithAttachments<T extends Record<string, unknown>>(
  db: Queryable,
  fields: AttachmentFields,
  data: T,
  previous: Record<string, unknown> | undefined,
  write: (columns: Record<string, unknown>) => Promise<unknown>,
): Promise<T> {
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
          const attachment = await store(item);
          stored.push(attachment.key);
          made.push(attachment);
        } else made.push(item instanceof StoredAttachment ? item : null);
      }
      saved[name] = many ? made.filter((item) => item !== null) : made[0];
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
    if (replaced.length > 0) await afterCommit(db, () => deleteKeys(replaced));
  }
  return saved as T;
}

/** After a record is destroyed: its files are deleted once the transaction commits. */
export async function deleteAttachmentsOf(
  db: Queryable,
  fields: AttachmentFields,
  record: Record<string, unknown>,
): Promise<void> {
  const keys = fields.flatMap(([name]) => keysOf(record[name]));
  if (keys.length > 0) await afterCommit(db, () => deleteKeys(keys));
}
