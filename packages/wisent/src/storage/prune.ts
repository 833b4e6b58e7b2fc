import { rmdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Kysely } from "kysely";
import { type AppStorage, listLegacyFiles } from "./app-storage.js";
import { STORED_KEY, uploadKeyOf } from "./stored-attachment.js";

/** How long a stored file is left alone by default before it can be pruned: one hour. */
export const DEFAULT_PRUNE_GRACE_MS = 60 * 60 * 1000;

/** A stored upload's key as it appears in a column's text (JSON of one file or a list). */
const KEY_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,10}/g;

/** Column types that can hold an attachment's JSON (or a key an app wrote itself). */
const TEXT_TYPE = /json|text|char|clob|string|^$/i;

/** Rows read per query while looking for keys. */
const PAGE = 1000;

/** A stored file that no row names. */
export interface Orphan {
  readonly key: string;
  readonly lastModified: Date;
}

/** What `pruneStorage` found (and deleted, unless it was a dry run). */
export interface PruneReport {
  /** Keys of uploads some row names. */
  readonly referenced: number;
  /** Files Wisent wrote that a row names (uploads and their variants). */
  readonly kept: number;
  /** Files no row names, newer than the grace period: a request may still be saving them. */
  readonly recent: number;
  /** Files of the namespace under keys Wisent does not write (left alone). */
  readonly foreign: number;
  /**
   * Files at the storage's root, stored before keys carried the app and the environment: no
   * telling whose they are, so left alone (`wisent storage migrate-keys` moves them).
   */
  readonly legacy: number;
  /** Files no row names, older than the grace period: deleted unless `dryRun`. */
  readonly orphans: readonly Orphan[];
}

/**
 * Every stored upload key the database names: the text of every JSON and text column of every
 * table, searched for keys. Wider than the models' attachment columns on purpose: a key an app
 * copied elsewhere keeps its file, and no model has to be loaded to know what is in use.
 */
export async function referencedKeys(db: Kysely<unknown>): Promise<Set<string>> {
  const found = new Set<string>();
  const any = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (const table of await db.introspection.getTables()) {
    if (table.isView) continue;
    const columns = table.columns.filter((c) => TEXT_TYPE.test(c.dataType)).map((c) => c.name);
    if (columns.length === 0) continue;
    const name = table.schema ? `${table.schema}.${table.name}` : table.name;
    const hasId = table.columns.some((c) => c.name === "id");
    const collect = (rows: Record<string, unknown>[]) => {
      for (const row of rows) {
        for (const column of columns) {
          const value = row[column];
          if (value === null || value === undefined) continue;
          const text = typeof value === "string" ? value : JSON.stringify(value);
          for (const match of text.matchAll(KEY_IN_TEXT)) found.add(match[0]);
        }
      }
    };
    if (!hasId) {
      collect(await any.selectFrom(name).select(columns).execute());
      continue;
    }
    // Page by id, so a large table is never read whole into memory. The id need not be unique
    // nor set (a table of the app's own may have any `id`): the rows sharing a full page's last
    // id are read whole before going past it, and the rows without one on their own, so that no
    // row is skipped (a key in a skipped row would have its file deleted).
    const page = () => any.selectFrom(name).select(["id", ...columns]);
    collect(await page().where("id", "is", null).execute());
    let last: unknown;
    for (;;) {
      let query = page().where("id", "is not", null).orderBy("id").limit(PAGE);
      if (last !== undefined) query = query.where("id", ">", last);
      const rows = await query.execute();
      collect(rows);
      if (rows.length < PAGE) break;
      last = rows[rows.length - 1]?.id;
      collect(await page().where("id", "=", last).execute());
    }
  }
  return found;
}

/**
 * Finds the stored files no row names (left by a crash between storing a file and the commit),
 * older than `graceMs`, and deletes them unless `dryRun`. A cached variant goes with its upload.
 * Only the storage's namespace (its app in its environment, `shop/production/`) is listed, and
 * only there is anything deleted: another app's or environment's files, keys Wisent does not
 * write and files stored before keys carried a namespace are never touched.
 *
 * @param storage - the app's storage
 * @param db - the app's database (every table's attachment columns are read)
 * @param options - `graceMs` (default one hour, {@link DEFAULT_PRUNE_GRACE_MS}), `dryRun` to
 *   only report, and `now`
 * @returns what was found: counts of referenced, kept, recent and foreign files, and the orphans
 * @throws Error of the storage or the database when either cannot be read
 * @example
 * const report = await pruneStorage(appStorage(), db.kysely, { graceMs: 3_600_000, dryRun: true });
 * report.orphans.map((o) => o.key);
 */
export async function pruneStorage(
  storage: AppStorage,
  db: Kysely<unknown>,
  options: { graceMs?: number; dryRun?: boolean; now?: Date } = {},
): Promise<PruneReport> {
  const graceMs = options.graceMs ?? DEFAULT_PRUNE_GRACE_MS;
  const cutoff = (options.now ?? new Date()).getTime() - graceMs;
  // Listed before the rows are read, so a file stored meanwhile is not looked at; one stored
  // just before by a request not yet committed is within the grace period.
  const stored: { key: string; lastModified: () => Promise<Date> }[] = [];
  for await (const object of storage.list()) stored.push(object);
  let legacy = 0;
  for await (const _ of listLegacyFiles(storage)) legacy++;
  const referenced = await referencedKeys(db);
  let kept = 0;
  let recent = 0;
  let foreign = 0;
  const orphans: Orphan[] = [];
  for (const object of stored) {
    const upload = uploadKeyOf(object.key);
    if (upload === undefined) foreign++;
    else if (referenced.has(upload)) kept++;
    else {
      const lastModified = await object.lastModified();
      if (lastModified.getTime() > cutoff) recent++;
      else orphans.push({ key: object.key, lastModified });
    }
  }
  if (!options.dryRun) {
    for (const orphan of orphans) await deleteOrphan(storage, orphan.key);
  }
  return { referenced: referenced.size, kept, recent, foreign, legacy, orphans };
}

/**
 * Deletes one orphan: an upload with its variants, or a variant alone (and, on the local disk, its
 * folder once empty, which a bucket does not have).
 */
export async function deleteOrphan(storage: AppStorage, key: string): Promise<void> {
  if (STORED_KEY.test(key)) return storage.deleteUpload(key);
  await storage.delete(key);
  if (storage.location.driver === "fs") await rmdir(dirname(storage.path(key))).catch(() => {});
}
