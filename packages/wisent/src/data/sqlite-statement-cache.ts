import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { StoredDate, storedDateFrom } from "./stored-date.js";

type Converter = (value: unknown) => unknown;

/**
 * Declared column types that SQLite cannot represent natively; the portable schema helpers
 * (`createTable`) declare them, so rows read back with the same JS types as on PostgreSQL/MySQL.
 */
const CONVERTERS: Record<string, Converter> = {
  boolean: (v) => (v === null || v === undefined ? v : v !== 0 && v !== "0" && v !== false),
  timestamp: (v) => readTimestamp(v),
  datetime: (v) => readTimestamp(v),
  json: (v) => (typeof v === "string" ? JSON.parse(v) : v),
};

function readTimestamp(v: unknown): unknown {
  if (typeof v === "string") return storedDateFrom(v);
  return typeof v === "number" ? new StoredDate(v) : v;
}

const DDL = /^\s*(create|alter|drop)\b/i;

/** better-sqlite3 binds only numbers, strings, bigints, buffers and null. */
function bindable(parameters: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < parameters.length; i++) {
    const v = parameters[i];
    let mapped: unknown;
    if (typeof v === "boolean") mapped = v ? 1 : 0;
    else if (v instanceof Date) mapped = v.toISOString();
    else continue;
    out ??= parameters.slice();
    out[i] = mapped;
  }
  return out ?? parameters;
}

/** A cached statement: Kysely's interface plus `get`, the first row only (a point read). */
export interface CachedSqliteStatement extends SqliteStatement {
  /** True when the statement cannot change the database (SQLite's sqlite3_stmt_readonly). */
  readonly readonly: boolean;
  get(parameters: readonly unknown[]): unknown;
}

/** What {@link cacheStatements} returns: Kysely's SQLite database, with {@link CachedSqliteStatement}s. */
export interface CachedSqliteDatabase extends SqliteDatabase {
  prepare(sql: string): CachedSqliteStatement;
}

class CachedStatement implements CachedSqliteStatement {
  readonly reader: boolean;
  /** True when the statement cannot change the database (a SELECT; also BEGIN and COMMIT). */
  readonly readonly: boolean;
  // The converted columns and their converters, side by side (no tuple to unpack per value).
  readonly #converted: string[] = [];
  readonly #converters: Converter[] = [];

  constructor(private readonly statement: BetterSqlite3.Statement) {
    this.reader = statement.reader;
    this.readonly = statement.readonly;
    if (this.reader) {
      for (const column of statement.columns()) {
        const convert = column.type ? CONVERTERS[column.type.toLowerCase()] : undefined;
        if (!convert) continue;
        this.#converted.push(column.name);
        this.#converters.push(convert);
      }
    }
  }

  all(parameters: readonly unknown[]): unknown[] {
    const rows = this.statement.all(...bindable(parameters)) as Record<string, unknown>[];
    if (this.#converted.length > 0) for (const row of rows) this.#convert(row);
    return rows;
  }

  get(parameters: readonly unknown[]): unknown {
    const row = this.statement.get(...bindable(parameters)) as Record<string, unknown> | undefined;
    if (row && this.#converted.length > 0) this.#convert(row);
    return row;
  }

  run(parameters: readonly unknown[]): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  } {
    return this.statement.run(...bindable(parameters));
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    for (const row of this.statement.iterate(...bindable(parameters))) {
      if (this.#converted.length > 0) this.#convert(row as Record<string, unknown>);
      yield row;
    }
  }

  #convert(row: Record<string, unknown>): void {
    const names = this.#converted;
    const converters = this.#converters;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      row[name] = converters[i]!(row[name]);
    }
  }
}

/**
 * Wraps a better-sqlite3 database for Kysely's `SqliteDialect` so that each SQL text is prepared
 * once and reused. Kysely prepares every statement anew, which costs about three times a point read.
 * Also binds booleans as 0/1 and dates as ISO strings, and reads columns declared `boolean`,
 * `timestamp` and `json` back as booleans, Dates and parsed JSON.
 *
 * @example
 * new SqliteDialect({ database: cacheStatements(new BetterSqlite3("db/app.sqlite")) });
 */
export function cacheStatements(
  db: BetterSqlite3.Database,
  maxStatements = 500,
): CachedSqliteDatabase {
  const cache = new Map<string, CachedStatement>();
  return {
    close() {
      cache.clear();
      db.close();
    },
    prepare(sql: string): CachedSqliteStatement {
      const hit = cache.get(sql);
      if (hit) return hit;
      const statement = new CachedStatement(db.prepare(sql));
      // Schema changes alter the columns (and declared types) a cached reader returns.
      if (DDL.test(sql)) {
        cache.clear();
        return statement;
      }
      if (maxStatements <= 0) return statement;
      if (cache.size >= maxStatements) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
      return statement;
    },
  };
}
