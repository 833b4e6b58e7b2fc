import { AsyncLocalStorage } from "node:async_hooks";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

/** Default largest multipart request body, all its files together: 100 MiB. */
export const DEFAULT_UPLOAD_LIMIT = 100 * 1024 * 1024;

/**
 * The folder this process writes uploads' temporary files to: `tmp/uploads/<pid>` in the app's
 * folder (`cwd`). One folder a process, so that a process starting up can tell the leftovers of
 * one that died from the files of one still running (see {@link removeLeftoverUploads}).
 *
 * @example temporaryUploadFolder("/srv/shop"); // "/srv/shop/tmp/uploads/4242"
 */
export function temporaryUploadFolder(cwd: string = process.cwd()): string {
  return join(cwd, "tmp", "uploads", String(process.pid));
}

/** A multipart read in progress, as its scope holds it. */
interface TrackedRead {
  /** Asks the read to write no more files: the answer is made, nobody will use them. */
  stop(): void;
  /** Settles once the read has ended and closed its files (never rejects). */
  readonly ended: Promise<unknown>;
}

/**
 * The temporary files of one multipart request: every file a read writes is registered here,
 * and deleted when the request ends ({@link withUploadScope}), however it ends.
 */
export class UploadScope {
  readonly #paths: string[] = [];
  readonly #reads = new Set<TrackedRead>();
  #ended = false;

  constructor(
    /** Largest multipart body, in bytes. */
    readonly limit: number,
    /** Where its temporary files are written. */
    readonly folder: string = temporaryUploadFolder(),
  ) {}

  /** Registers a temporary file, to be deleted with the scope. */
  addFile(path: string): void {
    this.#paths.push(path);
  }

  /** The temporary files registered so far. */
  get files(): readonly string[] {
    return this.#paths;
  }

  /** Whether the request has ended: a read still going writes no more files. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Registers a read, which {@link end} stops and waits for. */
  track(read: TrackedRead): void {
    this.#reads.add(read);
  }

  /**
   * Ends the scope: stops the reads still going and waits for them (their descriptors closed),
   * then deletes every temporary file.
   */
  async end(): Promise<void> {
    this.#ended = true;
    for (const read of this.#reads) read.stop();
    await Promise.all([...this.#reads].map((read) => read.ended));
    await discardTemporaryFiles(this.#paths);
  }
}

const scopes = new AsyncLocalStorage<UploadScope>();

/**
 * Runs `answer` (a multipart request's whole handling) with an upload scope, then deletes the
 * temporary files its uploads were written to, whether it succeeded or not: by then each one a
 * model wanted is in the storage. A read still going (nobody awaited it) is stopped and waited
 * for first, so that no file is written after the deletion.
 */
export async function withUploadScope<T>(limit: number, answer: () => T | Promise<T>): Promise<T> {
  const scope = new UploadScope(limit);
  try {
    return await scopes.run(scope, answer);
  } finally {
    await scope.end();
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

/** The removal of each uploads folder, once a process. */
const leftoversRemoved = new Map<string, Promise<void>>();

/**
 * Removes what earlier processes left under `tmp/uploads/` of the app's folder (a process killed
 * in the middle of an upload leaves its temporary files): the folders of processes that no longer
 * run, and this process's own (its id was a dead process's). The folder of a process still
 * running is left alone: a sibling worker of `wisent start --workers`, or the app `wisent dev`
 * is replacing. Once a process; the server calls it before it listens.
 *
 * @example await removeLeftoverUploads();
 */
export function removeLeftoverUploads(cwd: string = process.cwd()): Promise<void> {
  const root = join(cwd, "tmp", "uploads");
  let removal = leftoversRemoved.get(root);
  if (!removal) {
    removal = removeLeftovers(root);
    leftoversRemoved.set(root, removal);
  }
  return removal;
}

async function removeLeftovers(root: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return; // no uploads folder yet
  }
  const own = String(process.pid);
  const left = names.filter((name) => name === own || !processRuns(name));
  await Promise.all(
    left.map((name) => rm(join(root, name), { recursive: true, force: true }).catch(() => {})),
  );
}

/** Whether `name` is the id of a running process (another user's counts: it cannot be asked). */
function processRuns(name: string): boolean {
  if (!/^[1-9]\d*$/.test(name)) return false;
  try {
    process.kill(Number(name), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
