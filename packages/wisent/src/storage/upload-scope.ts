import { AsyncLocalStorage } from "node:async_hooks";
import { rm } from "node:fs/promises";

/** Default largest multipart request body, all its files together: 100 MiB. */
export const DEFAULT_UPLOAD_LIMIT = 100 * 1024 * 1024;

/** The temporary files of one multipart request, deleted when its answer is made. */
export interface UploadScope {
  /** Largest multipart body, in bytes. */
  readonly limit: number;
  readonly paths: string[];
}

const scopes = new AsyncLocalStorage<UploadScope>();

/**
 * Runs `answer` (a multipart request's whole handling) with an upload scope, then deletes the
 * temporary files its uploads were written to, whether it succeeded or not: by then each one a
 * model wanted is in the storage.
 */
export async function withUploadScope<T>(limit: number, answer: () => T | Promise<T>): Promise<T> {
  const scope: UploadScope = { limit, paths: [] };
  try {
    return await scopes.run(scope, answer);
  } finally {
    await discardTemporaryFiles(scope.paths);
  }
}

/** The current request's upload scope (none outside `withUploadScope`, e.g. a bare Hono app). */
export function currentUploadScope(): UploadScope | undefined {
  return scopes.getStore();
}

/** Deletes temporary upload files; one already gone is fine. */
export async function discardTemporaryFiles(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => {})));
}
