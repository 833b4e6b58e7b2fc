import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { Disk } from "flydrive";
import { requireDependency } from "../base/require-dependency.js";
import { envValue } from "../config/env.js";
import { optionalDependency } from "./optional-dependency.js";
import { type StorageLocation, storageLocation } from "./storage-url.js";
import { StorageWriteError } from "./storage-write-error.js";

/** What a stored file is, as the storage reports it. */
export interface StoredObjectInfo {
  readonly size: number;
  readonly lastModified: Date;
  readonly etag: string;
}

/**
 * The app's file storage: a flydrive `Disk` (the same calls on the local disk and on S3) plus what
 * serving needs that flydrive leaves to the driver (a byte range of a local file).
 */
export class AppStorage {
  constructor(
    readonly location: StorageLocation,
    readonly disk: Disk,
  ) {}

  /**
   * Stores a file read from `body` under `key`; a write the storage refuses throws a
   * {@link StorageWriteError} naming the path, the cause (`EACCES`) and `STORAGE_URL`.
   */
  async put(key: string, body: Readable, options: { contentType: string; size: number }) {
    try {
      await this.disk.putStream(key, body, {
        contentType: options.contentType,
        contentLength: options.size,
      });
    } catch (cause) {
      throw new StorageWriteError(this.location, key, cause);
    }
  }

  /** Deletes `key`; a key already gone is not an error. */
  async delete(key: string): Promise<void> {
    await this.disk.delete(key);
  }

  /** Deletes the upload `key` and the image variants made of it (`variants/<key>/`). */
  async deleteUpload(key: string): Promise<void> {
    await this.disk.delete(key);
    await this.disk.deleteAll(`variants/${key}/`);
  }

  /** Whether `key` is stored. */
  exists(key: string): Promise<boolean> {
    return this.disk.exists(key);
  }

  /** Size, modification time and an ETag of `key`, or undefined when it is not stored. */
  async info(key: string): Promise<StoredObjectInfo | undefined> {
    if (this.location.driver === "fs") {
      const stats = await stat(this.#path(key)).catch(() => undefined);
      if (!stats?.isFile()) return undefined;
      return {
        size: stats.size,
        lastModified: stats.mtime,
        etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
      };
    }
    if (!(await this.disk.exists(key))) return undefined;
    const meta = await this.disk.getMetaData(key);
    return { size: meta.contentLength, lastModified: meta.lastModified, etag: meta.etag };
  }

  /** The bytes of `key` from `start` to `end` (inclusive), or all of them. */
  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (this.location.driver === "fs") return createReadStream(this.#path(key), range);
    return this.disk.getStream(key);
  }

  /** Whether files are served by redirecting to the storage itself (S3) rather than streamed. */
  get redirects(): boolean {
    return this.location.driver === "s3";
  }

  /** A short-lived URL of `key` on the storage itself (S3), answering with these headers. */
  signedUrl(
    key: string,
    options: { contentType: string; contentDisposition: string; expiresIn: number },
  ): Promise<string> {
    return this.disk.getSignedUrl(key, {
      expiresIn: options.expiresIn,
      contentType: options.contentType,
      contentDisposition: options.contentDisposition,
    });
  }

  /**
   * Every stored key under `prefix` (for `wisent storage prune`), page by page on S3; nothing
   * when a local storage folder was never made. Its modification time is read when asked for
   * (on S3 it came with the listing).
   */
  async *list(prefix = ""): AsyncGenerator<{ key: string; lastModified: () => Promise<Date> }> {
    if (this.location.driver === "fs" && !(await stat(this.location.root).catch(() => undefined))) {
      return;
    }
    let paginationToken: string | undefined;
    do {
      const page = await this.disk.listAll(prefix, {
        recursive: true,
        ...(paginationToken ? { paginationToken } : {}),
      });
      for (const object of page.objects) {
        if (!("key" in object) || object.isFile !== true) continue;
        yield {
          key: object.key,
          lastModified: async () => (await object.getMetaData()).lastModified,
        };
      }
      paginationToken = page.paginationToken;
    } while (paginationToken);
  }

  #path(key: string): string {
    if (this.location.driver !== "fs") throw new Error("not a local storage");
    return join(this.location.root, key);
  }
}

/**
 * The storage at `location`: the local disk through flydrive's FS driver, or S3 through its S3
 * driver, which needs the optional `@aws-sdk/client-s3` and `@aws-sdk/s3-request-presigner`.
 */
export function openStorage(location: StorageLocation): AppStorage {
  const { Disk } = requireDependency<typeof import("flydrive")>("flydrive");
  if (location.driver === "fs") {
    const { FSDriver } =
      requireDependency<typeof import("flydrive/drivers/fs")>("flydrive/drivers/fs");
    return new AppStorage(
      location,
      new Disk(new FSDriver({ location: location.root, visibility: "private" })),
    );
  }
  const install = ["@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"];
  for (const name of install) optionalDependency(name, "S3 storage (STORAGE_URL s3://)", install);
  const { S3Driver } =
    requireDependency<typeof import("flydrive/drivers/s3")>("flydrive/drivers/s3");
  return new AppStorage(
    location,
    new Disk(
      new S3Driver({
        bucket: location.bucket,
        region: location.region,
        endpoint: location.endpoint,
        forcePathStyle: location.forcePathStyle,
        ...(location.credentials ? { credentials: location.credentials } : {}),
        visibility: "private",
        // S3-compatible servers and buckets with "object ownership" refuse ACLs.
        supportsACL: false,
        // Checksums only where S3 requires them: the SDK's default sends a streamed body
        // `aws-chunked` with a trailing checksum, which S3-compatible servers store as is.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    ),
  );
}

let current: AppStorage | undefined;

/**
 * The app's storage, from `STORAGE_URL` (read once, on first use).
 *
 * @example
 * await appStorage().delete(attachment.key);
 */
export function appStorage(): AppStorage {
  current ??= openStorage(storageLocation(envValue("STORAGE_URL")));
  return current;
}

/**
 * Replaces the app's storage (tests; an app that builds its own); `undefined` reads
 * `STORAGE_URL` again on next use.
 */
export function useStorage(storage: AppStorage | undefined): void {
  current = storage;
}
