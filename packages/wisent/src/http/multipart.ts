import { createWriteStream } from "node:fs";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { HttpError } from "../base/http-error.js";
import { requireDependency } from "../base/require-dependency.js";
import { FileMeter, temporaryUploadPath, typeOfBytes } from "../storage/file-bytes.js";
import {
  currentUploadScope,
  DEFAULT_UPLOAD_LIMIT,
  discardTemporaryFiles,
} from "../storage/upload-scope.js";
import { UploadedFile } from "../storage/uploaded-file.js";

/** A multipart body's entries in order: text fields and uploaded files. */
export type MultipartEntry = [string, string | UploadedFile];

/** Largest text field of a multipart form (1 MiB), and most parts. */
const FIELD_LIMIT = 1024 * 1024;
const PARTS_LIMIT = 1000;

type BusboyModule = typeof import("@fastify/busboy");

/** Counts the bytes of the whole body, refusing more than `limit` (413). */
class BodyMeter extends Transform {
  bytes = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.limit) {
      done(
        new HttpError(413, `request body is larger than the upload limit of ${this.limit} bytes`),
      );
      return;
    }
    done(null, chunk);
  }
}

/**
 * Reads a `multipart/form-data` body as it arrives (busboy): text fields in memory (1 MiB each at
 * most), each file streamed through SHA-256 into a temporary file, then typed from its bytes
 * (`file-type`). Memory stays flat whatever the files' sizes. More than the upload limit (the
 * request's upload scope, else {@link DEFAULT_UPLOAD_LIMIT}) is a 413 naming the field being
 * read; a malformed body a 400. Temporary files are deleted at the end of the request (see
 * `withUploadScope`), or at once when reading fails. A file input left empty (no name, no bytes)
 * is left out, as if not sent.
 *
 * @example
 * const entries = await readMultipart(request.body, request.headers.get("content-type")!);
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
): Promise<MultipartEntry[]> {
  const scope = currentUploadScope();
  const limit = scope?.limit ?? DEFAULT_UPLOAD_LIMIT;
  const written: string[] = [];
  const entries: MultipartEntry[] = [];
  const files: Promise<void>[] = [];
  if (!body) return entries;
  const { Busboy } = requireDependency<BusboyModule>("@fastify/busboy");
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: { fieldSize: FIELD_LIMIT, fileSize: limit, parts: PARTS_LIMIT },
    });
  } catch (cause) {
    throw new HttpError(400, `malformed multipart body: ${(cause as Error).message}`, { cause });
  }
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
  };
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) {
      fail(new HttpError(413, `field ${JSON.stringify(name)} is larger than ${FIELD_LIMIT} bytes`));
      return;
    }
    entries.push([name, value]);
  });
  parser.on("file", (name, stream, filename, _encoding, mimeType) => {
    const at = entries.length;
    entries.push([name, ""]);
    const path = temporaryUploadPath();
    written.push(path);
    scope?.paths.push(path);
    const meter = new FileMeter();
    stream.on("limit", () =>
      fail(
        new HttpError(413, `${name}: the file is larger than the upload limit of ${limit} bytes`),
      ),
    );
    files.push(
      pipeline(stream, meter, createWriteStream(path)).then(async () => {
        if (meter.size === 0 && !filename) {
          entries[at] = ["", ""];
          return;
        }
        const found = await typeOfBytes(path);
        entries[at] = [
          name,
          new UploadedFile(
            path,
            filename ?? "",
            found.mime,
            found.ext,
            meter.size,
            meter.hash.digest("base64"),
            mimeType ?? "",
          ),
        ];
      }, fail),
    );
  });
  parser.on("partsLimit", () => fail(new HttpError(413, `more than ${PARTS_LIMIT} form parts`)));
  try {
    await pipeline(
      Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
      new BodyMeter(limit),
      parser,
    );
    await Promise.all(files);
  } catch (cause) {
    await Promise.allSettled(files);
    fail(
      cause instanceof HttpError
        ? cause
        : new HttpError(400, `malformed multipart body: ${(cause as Error).message}`, { cause }),
    );
  }
  if (failure) {
    await discardTemporaryFiles(written);
    throw failure;
  }
  return entries.filter(([name]) => name !== "");
}
