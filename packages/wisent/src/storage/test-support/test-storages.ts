import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { type AppStorage, openStorage } from "../app-storage.js";
import { type StorageNamespace, storageNamespace } from "../storage-namespace.js";
import type { StorageLocation } from "../storage-url.js";

/**
 * One storage driver of {@link TestStorages.drivers}: its name, a way to open a fresh storage,
 * and a fresh location (a new folder; the bucket) to open several namespaces on.
 */
export interface TestStorageDriver {
  readonly name: string;
  readonly storage: () => AppStorage;
  readonly location: () => StorageLocation;
}

/** The namespace test storages hold their files in unless told otherwise. */
export const TEST_NAMESPACE: StorageNamespace = storageNamespace("wisent-tests", "test");

/**
 * The two storage drivers a storage test runs on: the local disk (a new temporary folder each
 * time) and S3, against a local S3-compatible server (s3rver on 127.0.0.1, never the internet)
 * with one bucket. `start()` in `beforeAll`, `stop()` in `afterAll`; `drivers` feeds
 * `describe.each` (its storages open only when called, after `start()`).
 *
 * @example
 * const storages = new TestStorages("media");
 * beforeAll(() => storages.start());
 * afterAll(() => storages.stop());
 * describe.each(storages.drivers)("attachments on $name", ({ storage }) => { ... });
 */
export class TestStorages {
  readonly #bucket: string;
  readonly #folders: string[] = [];
  #server: S3rver | undefined;
  #port = 0;

  constructor(bucket: string) {
    this.#bucket = bucket;
  }

  /** Starts the S3 server with the bucket. */
  async start(): Promise<void> {
    this.#server = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: this.#folder("s3rver"),
      configureBuckets: [{ name: this.#bucket, configs: [] }],
    });
    this.#port = (await this.#server.run()).port;
  }

  /** Stops the S3 server and removes every folder the storages used. */
  async stop(): Promise<void> {
    await this.#server?.close();
    for (const folder of this.#folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  }

  /** A storage on a new, empty temporary folder. */
  disk(namespace: StorageNamespace = TEST_NAMESPACE): AppStorage {
    return openStorage(this.diskLocation(), namespace);
  }

  /** A new, empty temporary folder as a storage location. */
  diskLocation(): StorageLocation {
    return { driver: "fs", root: this.#folder("disk") };
  }

  /** A storage on the S3 server's bucket (what earlier tests stored there is still there). */
  s3(namespace: StorageNamespace = TEST_NAMESPACE): AppStorage {
    return openStorage(this.s3Location(), namespace);
  }

  /** The S3 server's bucket as a storage location. */
  s3Location(): StorageLocation {
    if (!this.#server) throw new Error("TestStorages: call start() (in beforeAll) first");
    return {
      driver: "s3",
      bucket: this.#bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${this.#port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    };
  }

  /** Both drivers, for `describe.each`. */
  get drivers(): TestStorageDriver[] {
    return [
      {
        name: "local disk",
        storage: () => this.disk(),
        location: () => this.diskLocation(),
      },
      {
        name: "S3 (s3rver)",
        storage: () => this.s3(),
        location: () => this.s3Location(),
      },
    ];
  }

  #folder(kind: string): string {
    const folder = mkdtempSync(join(tmpdir(), `wisent-${this.#bucket}-${kind}-`));
    this.#folders.push(folder);
    return folder;
  }
}
