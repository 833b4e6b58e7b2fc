/** The path under which the app serves stored files (see `serveStoredFile`). */
export const FILES_PATH = "/files";

/** The keys Wisent stores uploads under: a UUID and the extension of the type found in the bytes. */
export const STORED_KEY = /^[0-9a-f-]{36}\.[a-z0-9]{1,10}$/;

/** A cached variant of a stored file: `variants/<stored key>/<variant>.<extension>`. */
const VARIANT_KEY = /^variants\/([0-9a-f-]{36}\.[a-z0-9]{1,10})\/[a-z0-9_-]{1,50}\.[a-z0-9]{1,10}$/;

/** Where the variant `variant` (written as `extension`) of the stored file `key` is cached. */
export function variantKey(key: string, variant: string, extension: string): string {
  return `variants/${key}/${variant}.${extension}`;
}

/**
 * The stored upload a storage key belongs to: the key itself for an upload, the original's key
 * for a cached variant, undefined for a key Wisent did not write (left alone by `storage prune`).
 */
export function uploadKeyOf(key: string): string | undefined {
  if (STORED_KEY.test(key)) return key;
  return VARIANT_KEY.exec(key)?.[1];
}

/** The column value of one attachment: where it is stored and what it is. */
export interface AttachmentColumn {
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly checksum: string;
}

/**
 * A file stored for a record, as a model reads it from its column. JSON and XML answers carry
 * its `url` (served by the app: streamed from the disk, or a redirect to a signed S3 URL) and
 * what it is, not the storage key.
 *
 * @example
 * image.file?.url; // "/files/0193...png"
 */
export class StoredAttachment implements AttachmentColumn {
  /**
   * Made by a model reading its column (`fromColumn`); an app rarely makes one.
   * @param key - the storage key
   * @param name - the file's name as uploaded
   * @param type - its type, found in its bytes
   * @param size - its length in bytes
   * @param checksum - SHA-256 of its bytes, base64
   */
  constructor(
    readonly key: string,
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly checksum: string,
  ) {}

  /** The app's URL of the file (its name last, for a download's name): see `app.storedFiles()`. */
  get url(): string {
    return `${FILES_PATH}/${this.key}/${encodeURIComponent(this.name || this.key)}`;
  }

  /** Whether it is an image a page can show (`<img>`): raster images only, never SVG. */
  get isImage(): boolean {
    return INLINE_IMAGES.has(this.type);
  }

  /**
   * An image variant's URL (see `imageVariant`), e.g. `variantUrl("thumb")`.
   * @param variant - a variant's name (`thumb`, or one declared with `imageVariant`)
   * @returns the file's URL with `?variant=`; an unknown variant answers 400 when requested
   */
  variantUrl(variant: string): string {
    return `${this.url}?variant=${encodeURIComponent(variant)}`;
  }

  /**
   * What is written to the column.
   * @returns the key, name, type, size and checksum
   */
  toColumn(): AttachmentColumn {
    const { key, name, type, size, checksum } = this;
    return { key, name, type, size, checksum };
  }

  /**
   * What JSON and XML answers carry: never the storage key.
   * @returns the url, name, type, size and checksum
   */
  toJSON(): Record<string, unknown> {
    const { url, name, type, size, checksum } = this;
    return { url, name, type, size, checksum };
  }

  /**
   * The attachment a column holds.
   * @param value - the column's value: a parsed JSON object, or its text
   * @returns the attachment, or undefined when the value is none (never throws)
   */
  static fromColumn(value: unknown): StoredAttachment | undefined {
    const column = typeof value === "string" ? safeParse(value) : value;
    if (column === null || typeof column !== "object") return undefined;
    const { key, name, type, size, checksum } = column as Record<string, unknown>;
    if (typeof key !== "string" || typeof type !== "string") return undefined;
    return new StoredAttachment(
      key,
      typeof name === "string" ? name : key,
      type,
      typeof size === "number" ? size : Number(size) || 0,
      typeof checksum === "string" ? checksum : "",
    );
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Raster images a browser shows inline; SVG is left out (it runs scripts). */
export const INLINE_IMAGES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
]);

/**
 * Types served `Content-Disposition: inline`: raster images, PDF, audio and video (which players
 * read in ranges). Anything else is served as a download, so an uploaded HTML or SVG file never
 * runs as a page of the app.
 */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  ...INLINE_IMAGES,
  "application/pdf",
  "video/mp4",
  "video/webm",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
]);
