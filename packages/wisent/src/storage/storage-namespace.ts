import { readFileSync } from "node:fs";
import { join } from "node:path";
import { WisentError } from "../base/wisent-error.js";
import type { Env } from "../config/env.js";
import { currentEnv } from "../config/settings.js";

/**
 * Whose files a part of the storage holds: one app in one environment. Every key Wisent writes
 * lies under `<app>/<env>/` (`shop/production/0193...png`), so apps and environments sharing
 * a folder or a bucket never list, prune or overwrite each other's files.
 */
export interface StorageNamespace {
  /** The app, from its package.json `name` (`@acme/shop` is `acme-shop`). */
  readonly app: string;
  /** The environment (`GO_ENV`, else `NODE_ENV`, else `development`). */
  readonly env: string;
  /** `<app>/<env>`: the folder (or key prefix) of its files, without a trailing slash. */
  readonly prefix: string;
}

/** A storage whose files cannot be told apart from another app's or environment's. */
export class StorageNamespaceError extends WisentError {
  override name = "StorageNamespaceError";
  constructor(message: string) {
    super("E_STORAGE_NAMESPACE", message);
  }
}

/** What a key segment may be: flydrive's key characters, no dot first (no `.` or `..`). */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * The namespace of `app` in `env`, both checked to be one plain key segment each.
 *
 * @example
 * storageNamespace("shop", "production").prefix; // "shop/production"
 */
export function storageNamespace(app: string, env: string): StorageNamespace {
  if (!SEGMENT.test(app)) {
    throw new StorageNamespaceError(
      `the app's name ${JSON.stringify(app)} cannot name its stored files: use letters, digits, ".", "_" and "-" (package.json "name")`,
    );
  }
  if (!SEGMENT.test(env)) {
    throw new StorageNamespaceError(
      `the environment ${JSON.stringify(env)} cannot name its stored files: use letters, digits, ".", "_" and "-" (GO_ENV)`,
    );
  }
  return { app, env, prefix: `${app}/${env}` };
}

/**
 * The namespace of the app in `cwd` (its package.json `name`) in the environment `env` names.
 * Without a name there is no telling whose files are whose: it throws rather than store or
 * prune anything outside a namespace.
 *
 * @example
 * appStorageNamespace("/srv/shop", { GO_ENV: "production" }).prefix; // "shop/production"
 */
export function appStorageNamespace(
  cwd: string = process.cwd(),
  env: Env = process.env,
): StorageNamespace {
  const file = join(cwd, "package.json");
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "is missing" : "is not JSON";
    throw new StorageNamespaceError(
      `stored files are kept under <app>/<environment>/, and ${file} ${why}: run this in the app's folder (the app's package.json names it)`,
    );
  }
  if (typeof name !== "string" || name === "") {
    throw new StorageNamespaceError(
      `stored files are kept under <app>/<environment>/, and ${file} has no "name": add one`,
    );
  }
  // npm's scope: `@acme/shop` is one segment, `acme-shop` (flydrive's keys have no `@`).
  return storageNamespace(name.replace(/^@([^/]+)\//, "$1-"), currentEnv(env));
}
