import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { WisentError } from "../base/wisent-error.js";
import type { Env } from "../config/env.js";
import { awsRegionSetting, currentEnv } from "../config/settings.js";

/**
 * Where the test environment keeps files when `STORAGE_URL` is unset: under `tmp/`, never in
 * development's `storage/`, and emptied after each test run (`removeTestUploads`).
 */
export const TEST_STORAGE_FOLDER = "tmp/test-storage";

/** Where an app keeps its files: a folder on this machine, or an S3-compatible bucket. */
export type StorageLocation =
  | { readonly driver: "fs"; readonly root: string }
  | {
      readonly driver: "s3";
      readonly bucket: string;
      readonly region: string;
      /** An S3-compatible server (MinIO, R2, s3rver); absent for AWS itself. */
      readonly endpoint?: string | undefined;
      /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
      readonly forcePathStyle: boolean;
      /** From the URL's user and password; absent: the AWS SDK's own chain (`AWS_ACCESS_KEY_ID`, ...). */
      readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
    };

/** A `STORAGE_URL` that cannot be used, with what to write instead. */
export class StorageUrlError extends WisentError {
  override name = "StorageUrlError";
  constructor(message: string) {
    super("E_STORAGE_URL", message);
  }
}

/**
 * Reads `STORAGE_URL`: unset or empty is the `storage/` folder of the app (`cwd`), or
 * `tmp/test-storage/` in the test environment (`GO_ENV=test`);
 * `file:uploads` or `file:///var/data/uploads` another folder; `s3://bucket?region=eu-west-1`
 * a bucket, with `endpoint=http://127.0.0.1:9000` for an S3-compatible server (path-style unless
 * `force_path_style=false`) and credentials as `s3://KEY:SECRET@bucket` or from the AWS SDK's
 * usual variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`).
 *
 * @param url - the `STORAGE_URL` value (unset: the app's `storage/` folder)
 * @param cwd - the folder relative paths resolve against (default the working folder)
 * @param env - where the AWS SDK's variables are read (default `process.env`)
 * @returns the location: a folder (`driver: "fs"`) or a bucket (`driver: "s3"`)
 * @throws WisentError `E_STORAGE_URL` (a `StorageUrlError`) for a URL of another scheme, a
 *   `file:` without a folder, or an `s3://` URL that is malformed or has no bucket
 * @example
 * storageLocation("s3://media?endpoint=http://127.0.0.1:9000&region=us-east-1");
 * // { driver: "s3", bucket: "media", endpoint: "http://127.0.0.1:9000", forcePathStyle: true, ... }
 */
export function storageLocation(
  url: string | undefined,
  cwd: string = process.cwd(),
  env: Env = process.env,
): StorageLocation {
  const value = url?.trim() ?? "";
  if (value === "") {
    const folder = currentEnv(env) === "test" ? TEST_STORAGE_FOLDER : "storage";
    return { driver: "fs", root: resolve(cwd, folder) };
  }
  if (value.startsWith("file:")) {
    const path = value.startsWith("file://") ? fileURLToPath(value) : value.slice("file:".length);
    if (path === "") throw new StorageUrlError("STORAGE_URL file: needs a folder (file:storage)");
    return { driver: "fs", root: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (value.startsWith("s3://")) return s3Location(value, env);
  throw new StorageUrlError(
    `STORAGE_URL "${value.replace(/\/\/[^@/]*@/, "//***@")}" is not supported: use file:<folder> or s3://<bucket>?region=...&endpoint=...`,
  );
}

function s3Location(value: string, env: NodeJS.ProcessEnv): StorageLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StorageUrlError("STORAGE_URL is not a valid s3:// URL (s3://bucket?region=...)");
  }
  const bucket = decodeURIComponent(url.hostname);
  if (bucket === "") throw new StorageUrlError("STORAGE_URL s3:// needs a bucket (s3://bucket)");
  const params = url.searchParams;
  const endpoint = params.get("endpoint") ?? undefined;
  const region = params.get("region") ?? awsRegionSetting(env);
  const pathStyle = params.get("force_path_style");
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  return {
    driver: "s3",
    bucket,
    region,
    endpoint,
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle !== "false",
    ...(user !== "" ? { credentials: { accessKeyId: user, secretAccessKey: password } } : {}),
  };
}
