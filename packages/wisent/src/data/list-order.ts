import {
  type Expression,
  type ExpressionBuilder,
  IdentifierNode,
  type OperationNode,
  OrderByItemNode,
  RawNode,
  ReferenceNode,
  type SelectQueryBuilder,
  type SelectQueryNode,
  type SqlBool,
  sql,
  TableNode,
} from "kysely";
import type { CursorParam, CursorValue } from "./page-cursor.js";

/** One column of a list's order: how to refer to it in SQL, its key in a row, its direction. */
export interface OrderKey {
  /** `created_at`, or `widgets.created_at`. */
  readonly ref: string;
  /** The row's property holding it. */
  readonly column: string;
  readonly desc: boolean;
}

/** The table (or alias) a query reads from, when it reads from exactly one. */
function soleTable(node: SelectQueryNode): string | undefined {
  const froms = node.from?.froms ?? [];
  if (froms.length !== 1) return undefined;
  const [from] = froms as [OperationNode];
  if (TableNode.is(from)) return from.table.identifier.name;
  if (from.kind === "AliasNode") {
    const alias = (from as unknown as { alias: OperationNode }).alias;
    if (IdentifierNode.is(alias)) return alias.name;
  }
  return undefined;
}

function keyOf(item: OperationNode): OrderKey | undefined {
  if (!OrderByItemNode.is(item)) return undefined;
  const { orderBy, direction } = item;
  if (!ReferenceNode.is(orderBy) || orderBy.column.kind !== "ColumnNode") return undefined;
  let desc = false;
  if (direction) {
    if (!RawNode.is(direction) || direction.sqlFragments.length !== 1) return undefined;
    const word = direction.sqlFragments[0]!.trim().toLowerCase();
    if (word !== "asc" && word !== "desc") return undefined;
    desc = word === "desc";
  }
  const column = orderBy.column.column.name;
  const table = orderBy.table?.table.identifier.name;
  return { ref: table ? `${table}.${column}` : column, column, desc };
}

/**
 * The order keyset pagination walks: the query's own `orderBy` columns, then `id` as the unique
 * last key when they do not end with it (a query with no order is ordered by `id`). Undefined
 * when the order holds something other than plain columns (an expression, `nulls first`): such a
 * list pages by number only.
 *
 * @example
 * listOrder(Widget.query(tx).orderBy("created_at", "desc"));
 * // keys: created_at desc, id asc; the query ordered by both
 */
export function listOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): { keys: OrderKey[]; query: SelectQueryBuilder<DB, TB, O> } | undefined {
  const node = query.toOperationNode();
  const keys: OrderKey[] = [];
  for (const item of node.orderBy?.items ?? []) {
    const key = keyOf(item);
    if (!key) return undefined;
    keys.push(key);
  }
  if (keys.at(-1)?.column === "id") return { keys, query };
  const table = soleTable(node) ?? (node.joins?.length ? undefined : "");
  if (table === undefined) return undefined;
  const id: OrderKey = { ref: table === "" ? "id" : `${table}.id`, column: "id", desc: false };
  keys.push(id);
  // biome-ignore lint/suspicious/noExplicitAny: the id column is every Wisent table's, not in DB's type
  return { keys, query: query.orderBy(sql.ref(id.ref) as any) };
}

/** A query's order reversed (for `before`: read backwards from the cursor, then flip the rows). */
export function reversedOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  keys: readonly OrderKey[],
): SelectQueryBuilder<DB, TB, O> {
  let reversed = query.clearOrderBy();
  for (const key of keys) {
    // biome-ignore lint/suspicious/noExplicitAny: the keys came from this query's own order
    reversed = reversed.orderBy(sql.ref(key.ref) as any, key.desc ? "asc" : "desc");
  }
  return reversed;
}

/**
 * The rows strictly past a cursor in the walk's direction, as `k1 >= v1 and (k1 > v1 or (k2 >=
 * v2 and (...)))`: the outer range on the first key lets every database use its index, and each
 * key keeps its own direction.
 */
export function keysetWhere<DB, TB extends keyof DB>(
  keys: readonly OrderKey[],
  values: readonly CursorValue[],
  param: CursorParam,
): (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool> {
  return (eb) => {
    const step = (i: number): Expression<SqlBool> => {
      const key = keys[i]!;
      const forward = key.desc === (param === "before");
      const ref = sql.ref(key.ref);
      const value = values[i];
      // biome-ignore lint/suspicious/noExplicitAny: columns named by the query's own order
      const past = eb(ref as any, forward ? ">" : "<", value);
      if (i === keys.length - 1) return past;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      return eb.and([eb(ref as any, forward ? ">=" : "<=", value), eb.or([past, step(i + 1)])]);
    };
    return step(0);
  };
}
