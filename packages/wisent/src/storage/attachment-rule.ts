import { z } from "zod";
import { type FileSource, isFileSource } from "./file-from-code.js";
import { StoredAttachment } from "./stored-attachment.js";
import { UploadedFile } from "./uploaded-file.js";

/** Default largest file of one attachment: 10 MiB. */
export const DEFAULT_ATTACHMENT_SIZE = 10 * 1024 * 1024;

/** What an attachment accepts. */
export interface AttachmentOptions {
  /**
   * The types allowed, checked against the file's bytes (never its name or the client's
   * Content-Type): `image/png`, or `image/*` for any raster image (SVG is never an image here).
   * Default: any type (served as a download unless it is an inline type).
   */
  readonly types?: readonly string[];
  /** Largest file, in bytes (default {@link DEFAULT_ATTACHMENT_SIZE}). */
  readonly maxSize?: number;
  /** A record may have no file (`null`). Default false: a file is required. */
  readonly optional?: boolean;
}

/**
 * What an attachment field takes: a file a client sends (a `Blob`/`File` through the typed client,
 * which the server reads as an {@link UploadedFile}), a file given by code to a model's `create`
 * or `update` (a `Blob`/`File`, a Node stream or a `file:` URL: see {@link FileSource}), or the
 * record's stored file.
 */
export type FileInput = FileSource | UploadedFile | StoredAttachment;

/** What a model field's attachment rule takes: several files, whether none is allowed (null), which types. */
interface AttachmentRuleInfo {
  readonly many: boolean;
  readonly optional?: boolean;
  readonly types?: readonly string[] | undefined;
}

const RULES = new WeakMap<z.ZodType, AttachmentRuleInfo>();

/** Whether `schema` (a field of a model's schema) is an attachment, and of how many files. */
export function attachmentRuleOf(schema: unknown): AttachmentRuleInfo | undefined {
  return typeof schema === "object" && schema !== null ? RULES.get(schema as z.ZodType) : undefined;
}

/**
 * The `accept` of a file input for an attachment field: the types its rule allows
 * (`image/*,application/pdf`), so that narrowing a model's `types` narrows its form too;
 * undefined for a field that takes any type (or is no attachment).
 *
 * @example
 * <input type="file" name="cover" accept={fileAccept(Book.schema.shape.cover)} />
 */
export function fileAccept(field: unknown): string | undefined {
  const types = attachmentRuleOf(field)?.types;
  return types && types.length > 0 && !types.includes("*/*") ? types.join(",") : undefined;
}

/** A message for the validator: the field's name is put before `text` (see `validate`). */
function issue(text: string) {
  return { code: "custom" as const, params: { fieldMessage: text } };
}

function typeAllowed(type: string, types: readonly string[] | undefined): boolean {
  if (!types || types.includes("*/*")) return true;
  return types.some((allowed) =>
    allowed.endsWith("/*")
      ? type.startsWith(allowed.slice(0, -1)) && type !== "image/svg+xml"
      : allowed === type,
  );
}

function describeTypes(types: readonly string[]): string {
  return types.map((type) => (type.endsWith("/*") ? `any ${type.slice(0, -2)}` : type)).join(", ");
}

/** Checks one value; pushes issues through `add`. */
function checkOne(
  value: unknown,
  options: AttachmentOptions,
  add: (found: ReturnType<typeof issue>) => void,
): void {
  if (value instanceof StoredAttachment) return;
  if (isFileSource(value)) {
    // Its bytes are read (and typed) by the model's create and update, never by validate alone.
    add(issue("must be saved with the model's create or update, which read its bytes."));
    return;
  }
  if (!(value instanceof UploadedFile)) {
    add(issue("must be a file sent as multipart/form-data."));
    return;
  }
  const maxSize = options.maxSize ?? DEFAULT_ATTACHMENT_SIZE;
  if (value.size > maxSize) add(issue(`must be at most ${formatBytes(maxSize)}.`));
  else if (value.size === 0) add(issue("must not be empty."));
  if (!typeAllowed(value.type, options.types)) {
    add(
      issue(
        `must be ${describeTypes(options.types ?? [])} (its bytes are ${value.type === "application/octet-stream" ? "of no known type" : value.type}).`,
      ),
    );
  }
}

/** `10485760` -> `10 MB`, for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

const blank = (value: unknown) => value === undefined || value === null || value === "";

/**
 * A model field holding one stored file (a JSON column of its key, name, type, size and
 * checksum). It takes a file uploaded in a multipart form, checked by its bytes and size (a 422
 * naming the field otherwise), or the record's stored file; never a value a JSON body made up.
 * The model stores the upload when it saves the record (see `defineModel`). The field's type is
 * the stored file: between `validate` and the model's save it holds the upload.
 *
 * @param options - the `types` allowed (by the file's bytes), `maxSize` in bytes (default 10 MiB)
 *   and `optional: true` for a field that may hold no file
 * @returns the zod rule of the field; its failures are 422 messages naming the field ("File must
 *   be at most 10 MB.", "File can not be blank.")
 * @example
 * schema: z.object({ caption: z.string(), file: attachment({ types: ["image/*"], maxSize: 5 * 1024 * 1024 }) })
 */
export function attachment(
  options: AttachmentOptions & { optional: true },
): z.ZodOptional<z.ZodType<StoredAttachment | null, FileInput | null>>;
/**
 * A model field holding one stored file, required (see the other signature).
 * @param options - the `types` allowed and `maxSize` in bytes
 * @returns the zod rule of the field
 */
export function attachment(options?: AttachmentOptions): z.ZodType<StoredAttachment, FileInput>;
export function attachment(
  options: AttachmentOptions = {},
): z.ZodType<StoredAttachment | null | undefined, FileInput | null | undefined> {
  // A preprocess (not a transform) so that a field left out is checked as null, not skipped.
  const rule = z
    .preprocess((value) => (blank(value) ? null : value), z.unknown())
    .superRefine((value, ctx) => {
      if (value === null) {
        if (!options.optional) ctx.addIssue(issue("can not be blank."));
        return;
      }
      checkOne(value, options, (found) => ctx.addIssue(found));
    }) as unknown as z.ZodType<StoredAttachment | null, FileInput | null>;
  // Optional: a field left out is not written (NULL), as a form without a file sends none.
  const field = options.optional ? rule.optional() : rule;
  RULES.set(field, { many: false, optional: options.optional === true, types: options.types });
  return field;
}

/**
 * A model field holding several stored files (a JSON array): each checked as {@link attachment}
 * checks one; sending files replaces the stored ones. Default: none.
 *
 * @param options - the `types` allowed, `maxSize` of each file in bytes, and `max` files
 * @returns the zod rule of the field
 * @example
 * schema: z.object({ files: attachments({ types: ["application/pdf"], max: 5 }) })
 */
export function attachments(
  options: Omit<AttachmentOptions, "optional"> & { readonly max?: number } = {},
): z.ZodDefault<z.ZodType<StoredAttachment[], FileInput | FileInput[]>> {
  const checked = z
    .preprocess(
      (value) => (blank(value) ? [] : Array.isArray(value) ? value : [value]),
      z.array(z.unknown()),
    )
    .superRefine((values, ctx) => {
      if (options.max !== undefined && values.length > options.max) {
        ctx.addIssue(issue(`must be at most ${options.max} files.`));
      }
      for (const value of values) checkOne(value, options, (found) => ctx.addIssue(found));
    }) as unknown as z.ZodType<StoredAttachment[], FileInput | FileInput[]>;
  // Left out: none (a default, which makes the field optional in the model's input type too).
  const rule = checked.default(() => []);
  RULES.set(rule, { many: true, types: options.types });
  return rule;
}
