import { createHash, randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform, type TransformCallback } from "node:stream";

/** Hashes and counts one file's bytes on their way to its temporary file. */
export class FileMeter extends Transform {
  size = 0;
  readonly hash = createHash("sha256");
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.byteLength;
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/** A new temporary file's path for the bytes of one upload (or of a file attached by code). */
export function temporaryUploadPath(): string {
  return join(tmpdir(), `wisent-upload-${randomUUID()}`);
}

let fileTypeModule: Promise<typeof import("file-type")> | undefined;

/**
 * The type of a file from its bytes (the `file-type` package), never from its name or a claimed
 * Content-Type: `application/octet-stream` (extension `bin`) when the bytes name no type.
 */
export async function typeOfBytes(path: string): Promise<{ mime: string; ext: string }> {
  fileTypeModule ??= import("file-type");
  const found = await (await fileTypeModule).fileTypeFromFile(path);
  return { mime: found?.mime ?? "application/octet-stream", ext: found?.ext ?? "bin" };
}
