/**
 * What an upload can leave behind in this process: temporary files in its uploads folder and
 * descriptors still open on them (read from /proc/self/fd: Linux).
 * @module
 */
import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { temporaryUploadFolder } from "../upload-scope.js";

/** The temporary upload files of this process. */
export function uploadFiles(folder: string = temporaryUploadFolder()): string[] {
  return existsSync(folder) ? readdirSync(folder) : [];
}

/** This process's descriptors open on a file of its uploads folder (a deleted one too). */
export function openUploadDescriptors(folder: string = temporaryUploadFolder()): string[] {
  const open: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${folder}/`)) open.push(target);
    } catch {
      // closed meanwhile (the listing's own descriptor, among others)
    }
  }
  return open;
}

/** Nothing left: no temporary file and no descriptor on one. */
export function nothingLeft(folder: string = temporaryUploadFolder()): boolean {
  return uploadFiles(folder).length === 0 && openUploadDescriptors(folder).length === 0;
}

/**
 * Waits until `condition` holds, checking every 10 ms, for at most `ms` (a server finishes
 * with an aborted request after the client has gone); resolves with whether it held.
 */
export async function eventually(condition: () => boolean, ms = 5_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) return false;
    await sleep(10);
  }
  return true;
}
