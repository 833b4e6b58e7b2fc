import { WisentError } from "../base/wisent-error.js";
import { paginationCountLimitSetting, paginationMaxOffsetSetting } from "../config/settings.js";

/** How lists count and how deep a `page` may go; see {@link configurePagination}. */
export interface PaginationSettings {
  /**
   * Lists up to this many rows are counted exactly (a count that stops one row past it); longer
   * ones report the database's estimate, marked `"total_entries_estimated": true`. Default
   * 10,000, or `PAGINATION_COUNT_LIMIT`.
   */
  countLimit: number;
  /**
   * The deepest `page` offset (in rows) served on a list longer than `countLimit`: a page past it
   * answers 400 naming the `after` cursor, instead of scanning that many rows. Default 10,000, or
   * `PAGINATION_MAX_OFFSET`.
   */
  maxOffset: number;
}

let current: PaginationSettings | undefined;

/**
 * The settings in force: those configured, else the environment's, else the defaults.
 * @returns the count limit and the deepest offset
 * @throws WisentError `E_CONFIG_INVALID` when `PAGINATION_COUNT_LIMIT` or
 *   `PAGINATION_MAX_OFFSET` is not a whole number of rows
 */
export function paginationSettings(): PaginationSettings {
  current ??= {
    countLimit: paginationCountLimitSetting(),
    maxOffset: paginationMaxOffsetSetting(),
  };
  return current;
}

/**
 * Sets how lists count and how deep `page` may go, for every list of the process; returns the
 * settings it replaced (to restore them in a test). Unset keys keep their value.
 *
 * @param settings - `countLimit` and `maxOffset`, in rows
 * @returns the settings it replaced
 * @throws WisentError `E_CONFIG_INVALID` when a value is not a whole number of rows
 * @example
 * configurePagination({ countLimit: 50_000, maxOffset: 20_000 });
 */
export function configurePagination(settings: Partial<PaginationSettings>): PaginationSettings {
  const previous = paginationSettings();
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new WisentError(
        "E_CONFIG_INVALID",
        `pagination ${key} must be a whole number of rows, got ${value}`,
      );
    }
  }
  current = {
    countLimit: settings.countLimit ?? previous.countLimit,
    maxOffset: settings.maxOffset ?? previous.maxOffset,
  };
  return previous;
}
