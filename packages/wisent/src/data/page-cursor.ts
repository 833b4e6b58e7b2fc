import { HttpError } from "../base/http-error.js";
import type { CursorParam } from "../http/pagination-shape.js";

export type { CursorParam };

/** A value of an ordered column as a cursor holds it. */
export type CursorValue = string | number | boolean | Date;

/**
 * The cursor of a row: the values of the list's order columns (the last one the unique key),
 * as base64url JSON. Opaque to clients; dates keep their type so that they bind as dates.
 *
 * @example
 * encodeCursor(["01a2...", new Date(0)]); // "WyIwMWEyLi4uIix7ImQiOiIxOTcwLTAxLTAxVDAwOjAwOjAwLjAwMFoifV0"
 */
export function encodeCursor(values: readonly unknown[]): string {
  const json = values.map((value) => (value instanceof Date ? { d: value.toISOString() } : value));
  return Buffer.from(JSON.stringify(json)).toString("base64url");
}

/** A 400 naming the cursor parameter. */
export function badCursor(param: CursorParam, why: string): HttpError {
  return new HttpError(
    400,
    `invalid cursor in "${param}": ${why}; use the cursor of a rel="next" or rel="prev" Link as it is`,
  );
}

const MAX_CURSOR_LENGTH = 2048;

/**
 * The values of a cursor made by {@link encodeCursor} for a list ordered by `keys` columns; an
 * empty cursor is the start (`after=`) or the end (`before=`) of the list, `undefined` here.
 * Anything else is a 400 naming the parameter.
 */
export function decodeCursor(
  text: string,
  param: CursorParam,
  keys: number,
): CursorValue[] | undefined {
  if (text === "") return undefined;
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) {
    throw badCursor(param, "not a cursor");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw badCursor(param, "not a cursor");
  }
  if (!Array.isArray(parsed) || parsed.length !== keys) {
    throw badCursor(param, "not a cursor of this list");
  }
  return parsed.map((value: unknown): CursorValue => {
    if (typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (value !== null && typeof value === "object" && Object.keys(value).length === 1) {
      const iso = (value as { d?: unknown }).d;
      const date = typeof iso === "string" ? new Date(iso) : undefined;
      if (date && !Number.isNaN(date.getTime())) return date;
    }
    throw badCursor(param, "not a cursor of this list");
  });
}
