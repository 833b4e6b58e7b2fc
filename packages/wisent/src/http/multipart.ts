import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { HttpError } from "../base/http-error.js";
import { requireDependency } from "../base/require-dependency.js";
import { FileMeter, typeOfBytes } from "../storage/file-bytes.js";
import {
  currentUploadScope,
  DEFAULT_UPLOAD_LIMIT,
  discardTemporaryFiles,
  temporaryUploadFolder,
  type UploadScope,
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
 * most), each file streamed through SHA-256 into a temporary file under the app's
 * `tmp/uploads/<pid>/`, then typed from its bytes (`file-type`). Memory stays flat whatever the
 * files' sizes. More than the upload limit (the request's upload scope, else
 * {@link DEFAULT_UPLOAD_LIMIT}) is a 413 naming the field being read; a malformed body, or one
 * the client stopped sending (it closed or reset the connection, or timed out), a 400. Temporary
 * files are deleted at the end of the request (see `withUploadScope`), or at once when reading
 * fails, their descriptors closed first. A file input left empty (no name, no bytes) is left
 * out, as if not sent. The body is not touched when the Content-Type cannot be read (no
 * boundary): the answer can then drain it.
 *
 * @example
 * const entries = await readMultipart(request, request.headers.get("content-type")!);
 */
export function readMultipart(request: Request, contentType: string): Promise<MultipartEntry[]> {
  const scope = currentUploadScope();
  const read = new MultipartRead(scope);
  const entries = read.run(request, contentType);
  scope?.track({ stop: () => read.stop(), ended: entries.catch(() => {}) });
  return entries;
}

/** One read of a multipart body, and the temporary files it writes. */
class MultipartRead {
  readonly #limit: number;
  readonly #folder: string;
  readonly #entries: MultipartEntry[] = [];
  /** Its temporary files: deleted at once when the read fails. */
  readonly #written: string[] = [];
  /** One promise a file part: settles once its temporary file is written and closed. */
  readonly #files: Promise<void>[] = [];
  /** File parts still streaming to their temporary files. */
  readonly #open = new Set<Readable>();
  #failure: Error | undefined;
  /** The request's answer is made: parts still arriving are dropped, not written. */
  #stopped = false;

  constructor(private readonly scope: UploadScope | undefined) {
    this.#limit = scope?.limit ?? DEFAULT_UPLOAD_LIMIT;
    this.#folder = scope?.folder ?? temporaryUploadFolder();
  }

  stop(): void {
    this.#stopped = true;
  }

  #fail = (error: Error): void => {
    this.#failure ??= error;
  };

  async run(request: Request, contentType: string): Promise<MultipartEntry[]> {
    const { Busboy } = requireDependency<BusboyModule>("@fastify/busboy");
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { "content-type": contentType },
        limits: { fieldSize: FIELD_LIMIT, fileSize: this.#limit, parts: PARTS_LIMIT },
      });
    } catch (cause) {
      throw new HttpError(400, `malformed multipart body: ${(cause as Error).message}`, { cause });
    }
    const body = request.body;
    if (!body) return [];
    parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) {
        this.#fail(
          new HttpError(413, `field ${JSON.stringify(name)} is larger than ${FIELD_LIMIT} bytes`),
        );
        return;
      }
      this.#entries.push([name, value]);
    });
    parser.on("file", (name, stream, filename, _encoding, mimeType) =>
      this.#file(name, stream, filename, mimeType),
    );
    parser.on("partsLimit", () =>
      this.#fail(new HttpError(413, `more than ${PARTS_LIMIT} form parts`)),
    );
    // Not the client's fault when it fails (a folder that cannot be written): a 500.
    await mkdir(this.#folder, { recursive: true });
    try {
      await pipeline(
        Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
        new BodyMeter(this.#limit),
        parser,
      );
      await Promise.all(this.#files);
    } catch (cause) {
      this.#fail(clientFault(cause as Error));
      // The body broke off (the client went away, the limit, a malformed part): the parser is
      // destroyed and ends no part it had begun, so each is ended here, closing its file.
      for (const part of this.#open) part.destroy(cause as Error);
      await Promise.allSettled(this.#files);
    }
    if (this.#failure) {
      await discardTemporaryFiles(this.#written);
      throw this.#failure;
    }
    return this.#entries.filter(([name]) => name !== "");
  }

  #file(name: string, stream: Readable, filename: string | undefined, mimeType: string): void {
    if (this.#failure || this.#stopped) {
      stream.resume(); // nobody will read it: dropped as it arrives
      return;
    }
    const at = this.#entries.length;
    this.#entries.push([name, ""]);
    const path = join(this.#folder, randomUUID());
    this.#written.push(path);
    this.scope?.addFile(path);
    const meter = new FileMeter();
    const limit = this.#limit;
    stream.on("limit", () =>
      this.#fail(
        new HttpError(413, `${name}: the file is larger than the upload limit of ${limit} bytes`),
      ),
    );
    this.#open.add(stream);
    const written = pipeline(stream, meter, createWriteStream(path)).finally(() =>
      this.#open.delete(stream),
    );
    this.#files.push(
      written.then(async () => {
        if (meter.size === 0 && !filename) {
          this.#entries[at] = ["", ""];
          return;
        }
        const found = await typeOfBytes(path);
        this.#entries[at] = [
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
      }, this.#fileFailed),
    );
  }

  /** A file part that could not be written: the disk's fault (a 500), else the body's. */
  #fileFailed = (error: Error): void => {
    this.#fail((error as NodeJS.ErrnoException).syscall ? error : clientFault(error));
  };
}

/** What went wrong reading the body, as the client's error: a 413 as it is, else a 400. */
function clientFault(cause: Error): HttpError {
  if (cause instanceof HttpError) return cause;
  return new HttpError(400, `malformed multipart body: ${cause.message}`, { cause });
}
