/**
 * `wisent/storage`: where uploaded files are kept (`STORAGE_URL`: a folder or an S3 bucket).
 * A model's file fields (`attachment()`) and the files a request carries (`UploadedFile`) are in
 * `wisent` itself.
 *
 * @example
 * import { openStorage, storageLocation, storageNamespace, useStorage } from "wisent/storage";
 * useStorage(openStorage(storageLocation("file:tmp/storage"), storageNamespace("shop", "test")));
 * @module
 */
export { AppStorage, appStorage, openStorage, useStorage } from "../storage/app-storage.js";
export {
  type AttachmentOptions,
  DEFAULT_ATTACHMENT_SIZE,
  type FileInput,
  fileAccept,
} from "../storage/attachment-rule.js";
export type { FileSource } from "../storage/file-from-code.js";
export { type ImageVariantOptions, imageVariant } from "../storage/image-variants.js";
export { type KeyMigration, migrateKeys } from "../storage/migrate-keys.js";
export {
  DEFAULT_PRUNE_GRACE_MS,
  type Orphan,
  type PruneReport,
  pruneStorage,
} from "../storage/prune.js";
export {
  appStorageNamespace,
  type StorageNamespace,
  storageNamespace,
} from "../storage/storage-namespace.js";
export { type StorageLocation, storageLocation } from "../storage/storage-url.js";
export { StorageWriteError } from "../storage/storage-write-error.js";
export { FILES_PATH } from "../storage/stored-attachment.js";
export { DEFAULT_UPLOAD_LIMIT } from "../storage/upload-scope.js";
