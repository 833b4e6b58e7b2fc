/**
 * A file part of a multipart request, written to a temporary file while it arrived (never held in
 * memory). `type` and `extension` come from its bytes (the `file-type` package), not from its
 * name or the client's Content-Type: `application/octet-stream` when the bytes name no type.
 * The temporary file is deleted when the request ends.
 */
export class UploadedFile {
  /** Made by the request's multipart reader (`c.bind()`); an app never makes one. */
  constructor(
    /** The temporary file holding the bytes. */
    readonly path: string,
    /** The file's name as the client sent it (`photo.png`), for showing only. */
    readonly name: string,
    /** The type found in the bytes, e.g. `image/png`. */
    readonly type: string,
    /** The extension of that type, without a dot (`png`; `bin` when unknown). */
    readonly extension: string,
    /** Its length in bytes. */
    readonly size: number,
    /** SHA-256 of the bytes, base64. */
    readonly checksum: string,
    /** The Content-Type the client claimed (not trusted; logged for diagnosis). */
    readonly claimedType: string,
  ) {}

  /**
   * What a log line or a re-rendered form shows: never the temporary path.
   * @returns the name, type and size
   */
  toJSON(): Record<string, unknown> {
    return { name: this.name, type: this.type, size: this.size };
  }
}
