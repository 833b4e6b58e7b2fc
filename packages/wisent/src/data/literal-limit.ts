import { type RawBuilder, sql } from "kysely";
import { WisentError } from "../base/wisent-error.js";

/**
 * A LIMIT written into the SQL (`limit 20`) rather than bound (`limit ?`). SQLite's planner reads
 * a bound LIMIT's value, so binding it (which every run of a statement does) makes SQLite prepare
 * the statement again at its next step: about 8 us of a 20-row page read's 20 (bench/data/run.mjs,
 * "raw, LIMIT written in"; bench/load/ab.mjs, JSON list). PostgreSQL and MySQL do not mind either
 * way.
 *
 * @param limit - the number of rows, a whole number from 0
 * @returns the literal, for Kysely's `.limit()`
 * @throws WisentError `E_INVALID_ARGUMENT` when `limit` is not a whole number from 0
 * @example db.selectFrom("widgets").selectAll().limit(literalLimit(20)) // ... limit 20
 */
export function literalLimit(limit: number): RawBuilder<number> {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `limit must be a whole number from 0, got ${String(limit)}`,
    );
  }
  return sql.lit(limit);
}

/** How many texts a {@link SqlPerLimit} keeps: a list's page sizes are few. */
const KEPT_LIMITS = 32;

/**
 * One read's SQL for each LIMIT it is run with (see {@link literalLimit}), compiled on first use
 * and kept for the first {@link KEPT_LIMITS} limits.
 */
export class SqlPerLimit {
  readonly #texts = new Map<number, string>();

  /** @param compile - the read's SQL with `limit` in it */
  constructor(private readonly compile: (limit: RawBuilder<number>) => string) {}

  /** The SQL for `limit` rows. */
  sql(limit: number): string {
    let text = this.#texts.get(limit);
    if (text === undefined) {
      text = this.compile(literalLimit(limit));
      if (this.#texts.size < KEPT_LIMITS) this.#texts.set(limit, text);
    }
    return text;
  }
}
