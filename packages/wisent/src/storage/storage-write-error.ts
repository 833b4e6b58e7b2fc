import { UnavailableError } from "../base/unavailable-error.js";
import type { StorageLocation } from "./storage-url.js";

/**
 * A file the storage refused to write (a folder the app's user cannot write, a full disk, a
 * bucket that refuses the credentials). It names the path, the cause (the system's error code,
 * `EACCES`, or S3's, `AccessDenied`) and the setting that chose the storage, `STORAGE_URL`; a
 * request that meets it answers 503, and its log line carries the three.
 *
 * @example
 * if (isWisentError(error, "E_STORAGE_WRITE")) console.error(error.path, error.reason);
 */
export class StorageWriteError extends UnavailableError {
  override name = "StorageWriteError";
  /** Where the file was to go: the local file's path, or `s3://bucket/key`. */
  readonly path: string;
  /** Why it could not: `EACCES`, `ENOSPC`, `EROFS`, S3's `AccessDenied`, ... */
  readonly reason: string;
  /** The setting that chose the storage, as it stands: `STORAGE_URL` and its value, or unset. */
  readonly setting: string;

  constructor(location: StorageLocation, key: string, cause: unknown) {
    const path =
      location.driver === "fs" ? `${location.root}/${key}` : `s3://${location.bucket}/${key}`;
    const reason = reasonOf(cause);
    const setting =
      location.driver === "fs"
        ? `STORAGE_URL (the folder ${location.root})`
        : `STORAGE_URL (the bucket ${location.bucket})`;
    const message = `cannot store the file ${path}: ${reason}${detailOf(cause, reason)}; the storage is ${setting}: make it writable by the app's user, or point STORAGE_URL elsewhere`;
    super("E_STORAGE_WRITE", "file storage", message, {
      cause,
      log: { msg: "storage write failed", file: path, cause: reason, setting, error: message },
    });
    this.path = path;
    this.reason = reason;
    this.setting = setting;
  }
}

/** The innermost error of a cause chain: flydrive wraps the system's ("Cannot write file at ..."). */
function rootOf(cause: unknown): unknown {
  let at = cause;
  for (let depth = 0; depth < 5; depth++) {
    const inner = (at as { cause?: unknown } | null)?.cause;
    if (inner === undefined || inner === null) break;
    at = inner;
  }
  return at;
}

/** The cause as a code: the system's (`EACCES`), else the error's name (S3's `AccessDenied`). */
function reasonOf(cause: unknown): string {
  const root = rootOf(cause) as { code?: unknown; name?: unknown } | null;
  if (typeof root?.code === "string") return root.code;
  if (typeof root?.name === "string" && root.name !== "Error") return root.name;
  return "unknown cause";
}

/** The innermost message, when it says more than the code. */
function detailOf(cause: unknown, reason: string): string {
  const root = rootOf(cause);
  const message = root instanceof Error ? root.message : undefined;
  return message && message !== reason ? ` (${message})` : "";
}
