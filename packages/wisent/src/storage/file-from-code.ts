import { createReadStream, createWriteStream } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { fileURLToPath } from "node:url";
import { FileMeter, temporaryUploadPath, typeOfBytes } from "./file-bytes.js";
import { UploadedFile } from "./uploaded-file.js";

/**
 * A file attached from code (seeds, the console, scripts, jobs) rather than uploaded: a `Blob`
 * or `File`, a Node stream, or a `file:` URL (`new URL("./covers/kindred.png",
 * import.meta.url)`, `pathToFileURL(path)`). None of them can come from a request's JSON or XML,
 * so a body can never name a file on the server.
 */
export type FileSource = Blob | Readable | URL;

/** Whether `value` is a file given by code (see {@link FileSource}). */
export function isFileSource(value: unknown): value is FileSource {
  return (
    value instanceof Blob ||
    value instanceof Readable ||
    (value instanceof URL && value.protocol === "file:")
  );
}

/** The name a file given by code is stored with: a File's, a path's last part, else `file`. */
function nameOf(source: FileSource): string {
  if (source instanceof URL) return basename(fileURLToPath(source));
  if (source instanceof Blob)
    return "name" in source && typeof source.name === "string" ? source.name : "file";
  const path = (source as Readable & { path?: unknown }).path;
  return typeof path === "string" ? basename(path) : "file";
}

/** The bytes of a file given by code, as a Node stream. */
function streamOf(source: FileSource): Readable {
  if (source instanceof URL) return createReadStream(fileURLToPath(source));
  if (source instanceof Blob) {
    return Readable.fromWeb(source.stream() as unknown as NodeReadableStream<Uint8Array>);
  }
  return source;
}

/**
 * Reads a file given by code into a temporary file, hashed and typed from its bytes exactly as
 * a multipart upload is (`file-type`, never its name or a Blob's `type`), so that an
 * `attachment()` rule checks it the same way. The temporary file's path is pushed to
 * `temporary` before a byte is written: its owner deletes it once the record is saved.
 *
 * @example
 * const file = await uploadedFileFrom(new URL("./kindred.png", import.meta.url), paths);
 */
export async function uploadedFileFrom(
  source: FileSource,
  temporary: string[],
): Promise<UploadedFile> {
  const path = temporaryUploadPath();
  temporary.push(path);
  const meter = new FileMeter();
  await pipeline(streamOf(source), meter, createWriteStream(path));
  const found = await typeOfBytes(path);
  const claimed = source instanceof Blob ? source.type : "";
  return new UploadedFile(
    path,
    nameOf(source),
    found.mime,
    found.ext,
    meter.size,
    meter.hash.digest("base64"),
    claimed,
  );
}
