import type { Queryable } from "./queryable.js";

/** What a model wrote: `created`, `updated` or `destroyed`, and the record as it now stands. */
export interface WrittenRecord {
  readonly action: "created" | "updated" | "destroyed";
  readonly record: { readonly id: string };
}

/** Tables whose writes someone reads (a live resource's model's); no others are noted. */
const WATCHED = new Set<string>();
const WRITES = new WeakMap<object, Map<string, WrittenRecord[]>>();

/** Notes the writes a model makes to `table` in a transaction, from now on (live resources). */
export function watchWrites(table: string): void {
  WATCHED.add(table);
}

/**
 * Notes a model's write to a watched table in a transaction (see {@link takeWrites}); nothing
 * for any other table, or outside a transaction.
 */
export function noteWrite(
  db: Queryable,
  table: string,
  action: WrittenRecord["action"],
  record: { readonly id: string },
): void {
  if (!WATCHED.has(table) || (db as { isTransaction?: boolean }).isTransaction !== true) return;
  let byTable = WRITES.get(db);
  if (!byTable) {
    byTable = new Map();
    WRITES.set(db, byTable);
  }
  const list = byTable.get(table);
  if (list) list.push({ action, record });
  else byTable.set(table, [{ action, record }]);
}

/** The writes noted on `trx` for `table`, forgotten as they are taken. */
export function takeWrites(trx: object, table: string): WrittenRecord[] {
  const byTable = WRITES.get(trx);
  const list = byTable?.get(table);
  if (!list) return [];
  byTable!.delete(table);
  return list;
}
