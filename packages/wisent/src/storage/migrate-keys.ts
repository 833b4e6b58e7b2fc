import type { Kysely } from "kysely";
import { type AppStorage, listLegacyFiles } from "./app-storage.js";
import { referencedKeys } from "./prune.js";
import { PRIVATE_FOLDER, STORED_KEY, uploadKeyOf } from "./stored-attachment.js";

/** What `migrateKeys` did (or would do, in a dry run). */
export interface KeyMigration {
  /** Files moved from the storage's root into the namespace, with their variants. */
  readonly moved: readonly string[];
  /**
   * Files copied from another environment's namespace of the same app, where a run there had
   * moved them (both databases name them: one was copied from the other).
   */
  readonly copied: readonly { readonly key: string; readonly from: string }[];
  /** Files this environment's rows name that are in its namespace already. */
  readonly present: number;
  /** Files this environment's rows name that are stored nowhere Wisent looks. */
  readonly missing: readonly string[];
  /**
   * Files at the root this environment's rows do not name, left where they are: another
   * environment's or app's (its own run moves them), or files no row names any longer.
   */
  readonly left: number;
}

/**
 * Moves the files an environment's rows name from the storage's root, where Wisent stored
 * them before keys carried the app and the environment, into that environment's namespace
 * (`<uuid>.png` becomes `shop/production/<uuid>.png`; a cached variant goes with its file). The
 * rows are not changed: they name a file by its id, which the namespace now holds. Files no row
 * of this database names are left at the root, for the other environments' and apps' runs.
 * Running it again moves nothing twice.
 *
 * @example
 * const report = await migrateKeys(appStorage(), db.kysely, { dryRun: true });
 */
export async function migrateKeys(
  storage: AppStorage,
  db: Kysely<unknown>,
  options: { dryRun?: boolean } = {},
): Promise<KeyMigration> {
  const present = new Set<string>();
  for await (const { key } of storage.list()) {
    if (STORED_KEY.test(key)) present.add(uploadKeyOf(key) as string);
  }
  // The root's uploads and variants, by the id of the upload they belong to.
  const legacy = new Map<string, { upload?: string; variants: string[] }>();
  for await (const { key } of listLegacyFiles(storage)) {
    const id = uploadKeyOf(key);
    if (id === undefined) continue;
    const entry = legacy.get(id) ?? { variants: [] };
    if (STORED_KEY.test(key)) entry.upload = key;
    else entry.variants.push(key);
    legacy.set(id, entry);
  }
  const referenced = [...(await referencedKeys(db))].sort();
  const prefix = `${storage.namespace.prefix}/`;
  const moved: string[] = [];
  const copied: { key: string; from: string }[] = [];
  const missing: string[] = [];
  let count = 0;
  let siblings: string[] | undefined;
  for (const id of referenced) {
    if (present.has(id)) {
      count++;
      continue;
    }
    const found = legacy.get(id);
    if (found?.upload) {
      if (!options.dryRun) {
        for (const key of [found.upload, ...found.variants]) {
          await storage.disk.move(key, prefix + key);
        }
      }
      moved.push(id);
      continue;
    }
    siblings ??= await otherEnvironments(storage);
    const copy = await findIn(storage, siblings, id);
    if (copy) {
      if (!options.dryRun) await storage.disk.copy(copy.from + copy.key, prefix + copy.key);
      copied.push({ key: copy.key, from: copy.from.slice(0, -1) });
    } else missing.push(id);
  }
  const left = [...legacy.values()].filter((entry) => entry.upload !== undefined).length;
  return { moved, copied, present: count, missing, left: left - moved.length };
}

/** The namespaces (`shop/staging/`) of the app's other environments in this storage. */
async function otherEnvironments(storage: AppStorage): Promise<string[]> {
  const { app, prefix } = storage.namespace;
  const found: string[] = [];
  let paginationToken: string | undefined;
  do {
    const page = await storage.disk.listAll(`${app}/`, {
      recursive: false,
      ...(paginationToken ? { paginationToken } : {}),
    });
    for (const object of page.objects) {
      if (!("prefix" in object) || object.isDirectory !== true) continue;
      const folder = object.prefix.replace(/\/$/, "");
      if (folder !== prefix) found.push(`${folder}/`);
    }
    paginationToken = page.paginationToken;
  } while (paginationToken);
  return found.sort();
}

/** The namespace among `namespaces` holding the file `id` (public or private), and its key there. */
async function findIn(
  storage: AppStorage,
  namespaces: readonly string[],
  id: string,
): Promise<{ from: string; key: string } | undefined> {
  for (const from of namespaces) {
    for (const key of [id, `${PRIVATE_FOLDER}${id}`]) {
      if (await storage.disk.exists(from + key)) return { from, key };
    }
  }
  return undefined;
}
