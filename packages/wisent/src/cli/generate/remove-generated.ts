/**
 * The file-by-file half of every destroy plan made from a generated record (job, mailer,
 * authentication): each file asked for (naming one edited since it was generated), removed, and
 * the record written back with only the files that were kept.
 * @module
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { pruneEmptyFolders } from "./destroy-resource.js";
import {
  contentHash,
  type GeneratedRecords,
  type ResourceRecord,
  writeRecords,
} from "./generated-record.js";
import type { FileAction } from "./write-generated.js";

/** How a destroy asks: `yes` removes without asking; `confirm` puts the y/n question. */
export interface RemoveOptions {
  readonly yes?: boolean;
  readonly confirm?: (question: string) => Promise<boolean>;
}

/**
 * Removes those of `files` that exist, asking per file unless `yes`, and says what it did. A
 * file `keep` gives a reason for is kept without asking (`skip <path> (<reason>)`).
 * @example const { kept, actions } = await removeGeneratedFiles(appDir, plan.files, record, options);
 */
export async function removeGeneratedFiles(
  appDir: string,
  files: readonly { readonly path: string }[],
  record: ResourceRecord,
  options: RemoveOptions,
  keep: (path: string) => string | undefined = () => undefined,
): Promise<{ kept: string[]; actions: FileAction[] }> {
  const kept: string[] = [];
  const actions: FileAction[] = [];
  for (const { path } of files) {
    if (!existsSync(join(appDir, path))) continue;
    const reason = keep(path);
    if (reason !== undefined) {
      kept.push(path);
      actions.push({ verb: "skip", path: `${path} (${reason})` });
      continue;
    }
    const hash = record.files[path];
    const edited = hash !== undefined && hash !== contentHash(readFileSync(join(appDir, path)));
    const question = `remove ${path}${edited ? " (edited since it was generated)" : ""}? (y/n) `;
    if (!options.yes && (await options.confirm?.(question)) !== true) {
      kept.push(path);
      actions.push({ verb: "skip", path });
      continue;
    }
    rmSync(join(appDir, path));
    pruneEmptyFolders(appDir, dirname(path), "src");
    actions.push({ verb: "remove", path });
  }
  return { kept, actions };
}

/** Writes `records` back with `key`'s record holding only the `kept` files (gone when none is). */
export function writeRecordsAfterRemoval(
  appDir: string,
  records: GeneratedRecords,
  key: string,
  kept: readonly string[],
): void {
  const rest = { ...records };
  const record = records[key];
  if (kept.length === 0 || record === undefined) delete rest[key];
  else
    rest[key] = {
      ...record,
      files: Object.fromEntries(Object.entries(record.files).filter(([p]) => kept.includes(p))),
    };
  writeRecords(appDir, rest);
}
