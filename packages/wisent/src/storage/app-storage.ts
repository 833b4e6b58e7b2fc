import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { Disk } from "flydrive";
import { requireDependency } from "../base/require-dependency.js";
import { storageUrlSetting } from "../config/settings.js";
import { optionalDependency } from "./optional-dependency.js";
import { appStorageNamespace, type StorageNamespace } from "./storage-namespace.js";
import { type StorageLocation, storageLocation } from "./storage-url.js";
import { STORED_KEY, uploadKeyOf, variantsFolder } from "./stored-attachment.js";

/** One stored file as a listing gives it; its modification time is read when asked for. */
export interface ListedObject {
  readonly key: string;
  readonly lastModified: () => Promise<Date>;
}

import { WisentError } from "../base/wisent-error.js";
import { StorageWriteError } from "./storage-write-error.js";

/** What a stored file is, as the storage reports it. */
export interface StoredObjectInfo {
  readonly size: number;
  readonly lastModified: Date;
  readonly etag: string;
}

/**
 * The app's file storage: a flydrive `Disk` (the same calls on the local disk and on S3) plus what
 * serving needs that flydrive leaves to the driver (a byte range of a local file). Every key is
 * the app's own: it is stored under the namespace's prefix (`shop/production/<key>`), so that the
 * apps and environments sharing one folder or bucket never see each other's files.
 */
export class AppStorage {
  /** `<app>/<env>/`: what every key is stored under. */
  readonly #prefix: string;

  /**
   * Made by {@link openStorage}.
   * @param location - where the files are (a folder or an S3 bucket)
   * @param disk - flydrive's disk for that location
   * @param namespace - the app and environment every key is stored under
   */
  constructor(
    readonly location: StorageLocation,
    readonly disk: Disk,
    readonly namespace: StorageNamespace,
  ) {
    this.#prefix = `${namespace.prefix}/`;
  }

  /** Where the app's files are, for messages: `/srv/shop/storage/shop/production`, `s3://media/shop/production/`. */
  get description(): string {
    return this.location.driver === "fs"
      ? join(this.location.root, this.namespace.prefix)
      : `s3://${this.location.bucket}/${this.#prefix}`;
  }

  /**
   * Stores a file read from `body` under `key` (replacing one stored there).
   * @param key - where to store it
   * @param body - the file's bytes, streamed
   * @param options - its `contentType` and `size` in bytes
   * @throws StorageWriteError (`E_STORAGE_WRITE`, answered 503) when the storage refuses the
   *   write, naming the path, the cause (`EACCES`) and `STORAGE_URL`
   */
  async put(key: string, body: Readable, options: { contentType: string; size: number }) {
    try {
      await this.disk.putStream(this.#prefix + key, body, {
        contentType: options.contentType,
        contentLength: options.size,
      });
    } catch (cause) {
      throw new StorageWriteError(this.location, this.#prefix + key, cause);
    }
  }

  /**
   * Deletes `key`; a key already gone is not an error.
   * @param key - the stored file's key
   */
  async delete(key: string): Promise<void> {
    await this.disk.delete(this.#prefix + key);
  }

  /** Deletes the upload `key` and the image variants made of it (`variants/<id>/`). */
  /**
   * Deletes the upload `key` and the image variants made of it (`variants/<key>/`).
   * @param key - the upload's key
   */
  async deleteUpload(key: string): Promise<void> {
    await this.disk.delete(this.#prefix + key);
    await this.disk.deleteAll(this.#prefix + variantsFolder(key));
  }

  /**
   * Whether `key` is stored.
   * @param key - the stored file's key
   * @returns true when a file is stored under it
   */
  exists(key: string): Promise<boolean> {
    return this.disk.exists(this.#prefix + key);
  }

  /**
   * Size, modification time and an ETag of `key`.
   * @param key - the stored file's key
   * @returns the file's facts, or undefined when it is not stored
   */
  async info(key: string): Promise<StoredObjectInfo | undefined> {
    if (this.location.driver === "fs") {
      const stats = await stat(this.path(key)).catch(() => undefined);
      if (!stats?.isFile()) return undefined;
      return {
        size: stats.size,
        lastModified: stats.mtime,
        etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
      };
    }
    if (!(await this.disk.exists(this.#prefix + key))) return undefined;
    const meta = await this.disk.getMetaData(this.#prefix + key);
    return { size: meta.contentLength, lastModified: meta.lastModified, etag: meta.etag };
  }

  /**
   * The bytes of `key` from `start` to `end` (inclusive), or all of them. A range is honoured on
   * a local storage; S3 streams the whole file.
   * @param key - the stored file's key
   * @param range - the first and last byte to read
   * @returns a stream of the bytes
   */
  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (this.location.driver === "fs") return createReadStream(this.path(key), range);
    return this.disk.getStream(this.#prefix + key);
  }

  /** Whether files are served by redirecting to the storage itself (S3) rather than streamed. */
  get redirects(): boolean {
    return this.location.driver === "s3";
  }

  /**
   * A short-lived URL of `key` on the storage itself (S3), answering with these headers.
   * @param key - the stored file's key
   * @param options - the `Content-Type` and `Content-Disposition` the URL answers with, and
   *   `expiresIn` seconds
   * @returns the signed URL
   * @throws Error of flydrive on a local storage, which has no signed URLs
   */
  signedUrl(
    key: string,
    options: { contentType: string; contentDisposition: string; expiresIn: number },
  ): Promise<string> {
    return this.disk.getSignedUrl(this.#prefix + key, {
      expiresIn: options.expiresIn,
      contentType: options.contentType,
      contentDisposition: options.contentDisposition,
    });
  }

  /**
   * Every key of the app's namespace (for `wisent storage prune`), page by page on S3; nothing
   * when the folder was never made. Never a key outside the namespace. Its modification time is
   * read when asked for (on S3 it came with the listing).
   * @returns the keys, each with a function reading its modification time
   */
  async *list(): AsyncGenerator<ListedObject> {
    for await (const object of listFiles(this, this.#prefix, true)) {
      yield { key: object.key.slice(this.#prefix.length), lastModified: object.lastModified };
    }
  }

  /** The path of `key` on the local disk (a local storage only). */
  path(key: string): string {
    if (this.location.driver !== "fs") {
      throw new WisentError(
        "E_INVALID_ARGUMENT",
        `storage.path(${JSON.stringify(key)}): STORAGE_URL is a bucket, and path() names files of a local folder only: read the file with get()`,
      );
    }
    return join(this.location.root, this.#prefix + key);
  }
}

/**
 * The files under `prefix` of the whole storage (not one namespace's), page by page on S3:
 * recursively, or only those directly in it. Nothing when the local folder was never made.
 * The storage at `location`: the local disk through flydrive's FS driver, or S3 through its S3
 * driver, which needs the optional `@aws-sdk/client-s3` and `@aws-sdk/s3-request-presigner`.
 * @param location - from {@link storageLocation}
 * @returns the storage; nothing is connected or created until the first call
 * @throws MissingDependencyError (`E_MISSING_DEPENDENCY`) for an S3 location when the AWS SDK
 *   packages are not installed, naming the `npm install` to run
 * @example const storage = openStorage(storageLocation("file:tmp/storage"));
 */
export async function* listFiles(
  storage: AppStorage,
  prefix: string,
  recursive: boolean,
): AsyncGenerator<ListedObject> {
  const { location, disk } = storage;
  if (location.driver === "fs" && !(await stat(location.root).catch(() => undefined))) return;
  let paginationToken: string | undefined;
  do {
    const page = await disk.listAll(prefix, {
      recursive,
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

/**
 * The files Wisent stored before keys carried the app and the environment: uploads at the
 * storage's root (`<uuid>.<ext>`) and their variants (`variants/<uuid>.<ext>/...`). They belong
 * to no namespace: `wisent storage migrate-keys` moves each environment's own into its namespace.
 */
export async function* listLegacyFiles(storage: AppStorage): AsyncGenerator<ListedObject> {
  for await (const object of listFiles(storage, "", false)) {
    if (STORED_KEY.test(object.key)) yield object;
  }
  // Only a variant's own key: an app named "variants" keeps its namespace there.
  for await (const object of listFiles(storage, "variants/", true)) {
    if (uploadKeyOf(object.key) !== undefined) yield object;
  }
}

/**
 * The storage at `location`, holding the files of `namespace` (default: the app in the current
 * folder, in the current environment): the local disk through flydrive's FS driver, or S3
 * through its S3 driver, which needs the optional `@aws-sdk/client-s3` and
 * `@aws-sdk/s3-request-presigner`.
 *
 * @example
 * openStorage(storageLocation("file:uploads"), storageNamespace("shop", "production"));
 */
export function openStorage(
  location: StorageLocation,
  namespace: StorageNamespace = appStorageNamespace(),
): AppStorage {
  const { Disk } = requireDependency<typeof import("flydrive")>("flydrive");
  if (location.driver === "fs") {
    const { FSDriver } =
      requireDependency<typeof import("flydrive/drivers/fs")>("flydrive/drivers/fs");
    return new AppStorage(
      location,
      new Disk(new FSDriver({ location: location.root, visibility: "private" })),
      namespace,
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
    namespace,
  );
}

let current: AppStorage | undefined;

/**
 * The app's storage, from `STORAGE_URL` (read once, on first use), holding the files of the app
 * in the current folder (its package.json `name`) in the current environment.
 *
 * @returns the storage set by {@link useStorage}, else the one `STORAGE_URL` names
 * @throws WisentError `E_STORAGE_URL` (a `StorageUrlError`) when `STORAGE_URL` is not a
 *   storage location Wisent knows
 * @throws MissingDependencyError (`E_MISSING_DEPENDENCY`) for an S3 location without the AWS
 *   SDK packages
 * @example
 * await appStorage().delete(attachment.key);
 */
export function appStorage(): AppStorage {
  current ??= openStorage(storageLocation(storageUrlSetting()));
  return current;
}

/**
 * Replaces the app's storage (tests; an app that builds its own); `undefined` reads
 * `STORAGE_URL` again on next use.
 * @param storage - the storage to use from now on, or undefined
 * @example useStorage(openStorage(storageLocation("file:tmp/test-storage")));
 */
export function useStorage(storage: AppStorage | undefined): void {
  current = storage;
}
