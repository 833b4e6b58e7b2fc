import { signedFileQuery } from "./file-url-signature.js";

/** The path under which the app serves stored files (see `serveStoredFile`). */
export const FILES_PATH = "/files";

/** A stored file's id, as its URL carries it: a UUID and the extension of the type found in the bytes. */
export const FILE_ID = /^[0-9a-f-]{36}\.[a-z0-9]{1,10}$/;

/**
 * Where the files of records whose resource needs a sign-in are kept (within the app's
 * namespace): served only through a signed URL that expires, never by the id alone.
 */
export const PRIVATE_FOLDER = "private/";

/** The keys Wisent stores uploads under: a file id, in the private folder or not. */
export const STORED_KEY = /^(?:private\/)?[0-9a-f-]{36}\.[a-z0-9]{1,10}$/;

/** A cached variant of a stored file: `[private/]variants/<file id>/<variant>.<extension>`. */
const VARIANT_KEY =
  /^(?:private\/)?variants\/([0-9a-f-]{36}\.[a-z0-9]{1,10})\/[a-z0-9_-]{1,50}\.[a-z0-9]{1,10}$/;

/** The id of the stored file `key` (`private/<id>` or `<id>`): what its URL names. */
export function fileIdOf(key: string): string {
  return key.startsWith(PRIVATE_FOLDER) ? key.slice(PRIVATE_FOLDER.length) : key;
}

/** Where the variants of the stored file `key` are cached: `variants/<id>/`, in its folder. */
export function variantsFolder(key: string): string {
  const folder = key.startsWith(PRIVATE_FOLDER) ? PRIVATE_FOLDER : "";
  return `${folder}variants/${fileIdOf(key)}/`;
}

/** Where the variant `variant` (written as `extension`) of the stored file `key` is cached. */
export function variantKey(key: string, variant: string, extension: string): string {
  return `${variantsFolder(key)}${variant}.${extension}`;
}

/**
 * The id of the stored upload a storage key belongs to: the upload's own for an upload, the
 * original's for a cached variant, undefined for a key Wisent did not write (left alone by
 * `storage prune`). Rows name files by this id (`referencedKeys`).
 */
export function uploadKeyOf(key: string): string | undefined {
  if (STORED_KEY.test(key)) return fileIdOf(key);
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
 * what it is, not the storage key. The files of a record only signed-in users may see are
 * private: their URL is signed and expires (see `signedFileQuery`).
 *
 * @example
 * image.file?.url; // "/files/0193...png/cat.png", or ".../cat.png?expires=...&signature=..."
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

  /** Whether it is served only through a signed URL that expires (see `PRIVATE_FOLDER`). */
  get isPrivate(): boolean {
    return this.key.startsWith(PRIVATE_FOLDER);
  }

  /**
   * The app's URL of the file (its name last, for a download's name): see `app.storedFiles()`.
   * A private file's works for an hour or so: read it when making the page or answer.
   */
  get url(): string {
    const id = fileIdOf(this.key);
    const path = `${FILES_PATH}/${id}/${encodeURIComponent(this.name || id)}`;
    return this.isPrivate ? `${path}?${signedFileQuery(this.key)}` : path;
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
    const url = this.url;
    return `${url}${url.includes("?") ? "&" : "?"}variant=${encodeURIComponent(variant)}`;
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
