import {
  type ControlledTransaction,
  type Driver,
  Kysely,
  type Dialect as KyselyDialect,
  MysqlDialect,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  sql,
} from "kysely";
import type { TypeCastField, TypeCastNext } from "mysql2";
import type pgModule from "pg";
import {
  MissingDependencyError,
  NativeBinaryError,
  requireDependency,
} from "../base/require-dependency.js";
import { ConfigError } from "../config/env.js";
import {
  currentEnv,
  fallbackDatabaseUrl,
  givenDatabaseUrl,
  poolSizeSetting,
} from "../config/settings.js";
import type { AnyDB } from "./any-db.js";
import { DatabaseUnavailableError } from "./database-failure.js";
import { describeCause } from "./database-unavailable.js";
import { type DialectName, maskDatabaseUrl, parseDatabaseUrl } from "./database-url.js";
import { PooledRequestTransaction, readCommittedByDefault } from "./pooled-request-transaction.js";
import { deferredBeginClient, discardHeldBegin } from "./postgres-deferred-begin.js";
import { type SqliteOptions, sqliteDialect, WisentSqliteDialect } from "./sqlite-dialect.js";
import {
  allowDirectSqlite,
  sqliteRequestTransaction,
  sqliteRequestTransactionNow,
} from "./sqlite-request-transaction.js";
import { postgresTimestamptz, StoredDate } from "./stored-date.js";
import {
  kyselyTransaction,
  type TransactionHandle,
  type TransactionIntent,
} from "./transaction-handle.js";
import { TranslatingDriver } from "./translating-driver.js";

/** Options of `openDatabase`. */
export interface DatabaseOptions extends SqliteOptions {
  /**
   * Connections per pool for PostgreSQL/MySQL (default: `POOL_SIZE` from the environment, else
   * 10). SQLite always uses one.
   */
  poolSize?: number;
  /** Folder that relative SQLite files resolve against (default `process.cwd()`). */
  cwd?: string;
  /** Environment for the default URL `sqlite:db/<env>.sqlite` (default `currentEnv()`). */
  env?: string;
  /** Run `select 1` before returning, so a bad server fails at start-up (default true). */
  check?: boolean;
}

/**
 * One database of an app: a Kysely instance plus what Wisent needs around it (the dialect, the
 * masked URL, lazily begun transactions, shutdown). Make it once per process with `openDatabase`.
 *
 * @example
 * const db = await openDatabase();            // DATABASE_URL, else sqlite:db/<env>.sqlite
 * const rows = await db.kysely.selectFrom("widgets").selectAll().execute();
 * await db.close();
 */
export class Database<DB = AnyDB> {
  /** The Kysely instance: query builder, schema builder, migrations. */
  readonly kysely: Kysely<DB>;
  readonly #sqlite: WisentSqliteDialect | undefined;
  readonly #postgres: WisentPostgresDialect | undefined;
  /**
   * Whether a reading request's reads run without a transaction (PostgreSQL under READ
   * COMMITTED): read from the server with the first reading request, then kept.
   */
  #readsAlone: boolean | Promise<boolean> | undefined;

  constructor(
    kysely: Kysely<DB>,
    /** `sqlite`, `postgres` or `mysql` (MariaDB included). */
    readonly dialect: DialectName,
    /** The URL with its password masked, for messages and logs. */
    readonly url: string,
    /** Wisent's dialect under `kysely` (SQLite's, PostgreSQL's), for cheaper request transactions. */
    own?: WisentSqliteDialect | WisentPostgresDialect,
  ) {
    this.kysely = kysely;
    this.#sqlite = own instanceof WisentSqliteDialect ? own : undefined;
    this.#postgres = own instanceof WisentPostgresDialect ? own : undefined;
    if (this.#sqlite) allowDirectSqlite(kysely, this.#sqlite);
  }

  /**
   * Runs `select 1`, so a database that cannot be reached fails at start-up rather than on the
   * first request.
   * @throws WisentError `E_DATABASE_UNAVAILABLE` naming the masked URL and the cause when the
   *   database cannot be reached
   * @example await db.check();
   */
  async check(): Promise<void> {
    try {
      await sql`select 1`.execute(this.kysely);
    } catch (cause) {
      const raw = cause instanceof DatabaseUnavailableError ? cause.cause : cause;
      throw new DatabaseUnavailableError(
        `cannot connect to database ${this.url}: ${describeCause(raw)}`,
        raw,
      );
    }
  }

  /**
   * Begins a transaction the caller must end with `commit().execute()` or `rollback().execute()`.
   * Handlers get theirs from `c.tx()`; this is for scripts and tasks.
   * @returns Kysely's controlled transaction
   * @example
   * const trx = await db.begin();
   * await Widget.create(trx, { title: "Hammer" });
   * await trx.commit().execute();
   */
  begin(): Promise<ControlledTransaction<DB>> {
    return this.kysely.startTransaction().execute();
  }

  /**
   * Begins the transaction of one request (the `transaction` middleware's): `write` says the
   * request may change data. On SQLite it holds the one connection until it ends, and its BEGIN
   * waits for the first statement (IMMEDIATE when writing). On PostgreSQL under READ COMMITTED
   * (its default), a request's reads run on a pooled connection without BEGIN or COMMIT until
   * its first query that may write, which begins the transaction there (see
   * `PooledRequestTransaction`): a reading request sends neither, a create sends BEGIN, INSERT,
   * COMMIT (BEGIN in the INSERT's round trip: `deferredBeginClient`). Otherwise it is Kysely's
   * controlled transaction on a pooled connection: for PostgreSQL under another isolation
   * level, and on MySQL/MariaDB, whose default REPEATABLE READ gives a transaction one snapshot
   * from its first read on, which reads outside a transaction would not share.
   *
   * @param intent - `{ write: true }` when the request may change data
   * @returns the transaction's handle: `trx` to query with, `commit()` and `rollback()`
   * @throws Error of the driver when no connection can be had (a server that went away answers
   *   503 through `errorResponse`)
   * @example
   * const tx = await db.beginRequest({ write: true });
   * await Widget.create(tx.trx, { title: "Hammer" });
   * await tx.commit();
   */
  beginRequest(intent: TransactionIntent): Promise<TransactionHandle<DB>> {
    if (this.#sqlite) return sqliteRequestTransaction(this.kysely, this.#sqlite, intent);
    const postgres = this.#postgres;
    if (!postgres) return kyselyTransaction(this.kysely);
    const alone = this.#readsAlone ?? this.#readIsolation();
    return typeof alone === "boolean"
      ? this.#reading(postgres, alone)
      : alone.then((known) => this.#reading(postgres, known));
  }

  /**
   * {@link beginRequest} without waiting, where it can begin at once (SQLite's connection is
   * free; PostgreSQL under READ COMMITTED, where a request takes its connection at its first
   * query); else undefined. Saves the request a promise and a turn of the microtask
   * queue.
   * @param intent - `{ write: true }` when the request may change data
   * @returns the transaction's handle, or undefined when it must be awaited (`beginRequest`)
   */
  beginRequestNow(intent: TransactionIntent): TransactionHandle<DB> | undefined {
    if (this.#sqlite) return sqliteRequestTransactionNow(this.kysely, this.#sqlite, intent);
    const postgres = this.#postgres;
    if (!postgres || this.#readsAlone !== true) return undefined;
    return new PooledRequestTransaction(this.kysely, postgres, postgres.driver);
  }

  /** A reading request's transaction on PostgreSQL, once its isolation level is known. */
  #reading(postgres: WisentPostgresDialect, alone: boolean): Promise<TransactionHandle<DB>> {
    return alone
      ? Promise.resolve(new PooledRequestTransaction(this.kysely, postgres, postgres.driver))
      : kyselyTransaction(this.kysely);
  }

  /**
   * Reads whether the server's default isolation is READ COMMITTED, once: requests that come
   * meanwhile share the answer; a failure (the server is down) is not kept.
   */
  #readIsolation(): Promise<boolean> {
    const reading = readCommittedByDefault(this.kysely).then(
      (alone) => {
        this.#readsAlone = alone;
        return alone;
      },
      (error: unknown) => {
        this.#readsAlone = undefined;
        throw error;
      },
    );
    this.#readsAlone = reading;
    return reading;
  }

  /**
   * Closes every connection. The Database cannot be used afterwards.
   * @example app.onShutdown(() => db.close());
   */
  async close(): Promise<void> {
    await this.kysely.destroy();
    // Request transactions open SQLite without Kysely, which then has nothing to close.
    await this.#sqlite?.driver.destroy();
  }
}

/**
 * Opens the app's database from a URL (default: `DATABASE_URL`, else `sqlite:db/<env>.sqlite`).
 * SQLite runs with WAL, a busy timeout, foreign keys on and a prepared-statement cache;
 * PostgreSQL and MySQL/MariaDB use a connection pool. Fails with an Error naming the masked URL
 * and the cause when the URL is bad or the server cannot be reached.
 *
 * @param url - `sqlite:db/development.sqlite`, `postgres://...` or `mysql://...` (default
 *   `DATABASE_URL`, else `sqlite:db/<env>.sqlite`)
 * @param options - pool size, SQLite settings, and `check: false` to skip the `select 1`
 * @returns the database, checked (unless `check: false`)
 * @throws WisentError `E_DATABASE_URL` when the URL is not one Wisent can open
 * @throws MissingDependencyError (`E_MISSING_DEPENDENCY`) when the URL's driver (`pg`, `mysql2`)
 *   is not installed, naming the `npm install` to run
 * @throws WisentError `E_NATIVE_BINARY` when better-sqlite3 has no binary for this platform
 * @throws WisentError `E_DATABASE_UNAVAILABLE` when the database cannot be opened, or (with the check) reached
 * @example
 * const db = await openDatabase(process.env.DATABASE_URL, { poolSize: 20 });
 */
export async function openDatabase<DB = AnyDB>(
  url?: string,
  options: DatabaseOptions = {},
): Promise<Database<DB>> {
  const db = createDatabase<DB>(url, options, false);
  if (options.check ?? true) {
    try {
      await db.check();
    } catch (error) {
      // Not awaited: mysql2's pool.end() can wait forever for a connection that never opened.
      db.close().catch(() => {});
      throw error;
    }
  }
  return db;
}

/**
 * The app's database without connecting: nothing is opened (no SQLite file, no socket) until the
 * first query, so a module can export it and tools can import the app without a database.
 * Call `await db.check()` at server start-up to fail early with the masked URL.
 *
 * @param url - `sqlite:db/development.sqlite`, `postgres://...` or `mysql://...` (default
 *   `DATABASE_URL`, else `sqlite:db/<env>.sqlite`)
 * @param options - pool size and SQLite settings
 * @returns the database, not yet connected
 * @throws WisentError `E_DATABASE_URL` when the URL is not one Wisent can open
 * @throws MissingDependencyError (`E_MISSING_DEPENDENCY`) when the URL's driver (`pg`, `mysql2`)
 *   is not installed, naming the `npm install` to run
 * @throws WisentError `E_NATIVE_BINARY` when better-sqlite3 has no binary for this platform
 * @throws WisentError `E_DATABASE_UNAVAILABLE` when the database cannot be opened (its first query throws
 *   this when the server cannot be reached)
 * @example
 * // src/db.ts
 * export const db = database(); // DATABASE_URL, else sqlite:db/<env>.sqlite
 */
export function database<DB = AnyDB>(
  url?: string,
  options: Omit<DatabaseOptions, "check"> = {},
): Database<DB> {
  return createDatabase<DB>(url, options, true);
}

function createDatabase<DB>(url: string | undefined, options: DatabaseOptions, lazy: boolean) {
  const resolved =
    url || givenDatabaseUrl() || fallbackDatabaseUrl(options.env ?? currentEnv(), options.cwd);
  const target = parseDatabaseUrl(resolved, options.cwd);
  const masked = maskDatabaseUrl(resolved);
  let dialect: KyselyDialect;
  try {
    dialect =
      target.dialect === "sqlite"
        ? sqliteDialect(target.file, options, lazy)
        : target.dialect === "postgres"
          ? postgresDialect(target.url, options)
          : mysqlDialect(target.url, options);
  } catch (cause) {
    // A missing driver or binary is about the install, not this database: its line says the fix.
    if (cause instanceof MissingDependencyError || cause instanceof NativeBinaryError) throw cause;
    throw new DatabaseUnavailableError(
      `cannot open database ${masked}: ${describeCause(cause)}`,
      cause,
    );
  }
  const own =
    dialect instanceof WisentSqliteDialect || dialect instanceof WisentPostgresDialect
      ? dialect
      : undefined;
  return new Database<DB>(new Kysely<DB>({ dialect }), target.dialect, masked, own);
}

// The server drivers load when a URL needs them (both are CommonJS, so synchronously): together
// they are a third of the framework's import time, which a SQLite app never needs.
const loadPg = () => requireDependency<typeof pgModule>("pg");
const loadMysql = () => requireDependency<typeof import("mysql2")>("mysql2");

/** The pool size: the option, else `POOL_SIZE`, else 10; anything but 1-1000 is refused by name. */
export function poolSizeOf(options: DatabaseOptions): number {
  if (options.poolSize === undefined) return poolSizeSetting();
  const size = options.poolSize;
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new ConfigError(`poolSize must be a whole number from 1 to 1000, got ${size}`);
  }
  return size;
}

const PG_INT8 = 20;
const PG_DATE = 1082;
const PG_NUMERIC = 1700;
const PG_TIMESTAMP = 1114;
const PG_TIMESTAMPTZ = 1184;

/** A driver's Date as a StoredDate (JSON formats it once, cheaply); other values as they are. */
function stored(value: unknown): unknown {
  return value instanceof Date && !Number.isNaN(value.getTime())
    ? new StoredDate(value.getTime())
    : value;
}

function bigintValue(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

function pgTypeParser(pg: typeof pgModule, oid: number, format?: "text" | "binary") {
  // A DATE is a calendar day: keep "2024-05-01" instead of a Date at local midnight,
  // the same string SQLite and MySQL (dateStrings) return.
  if (oid === PG_DATE) return (value: string) => value;
  // A DECIMAL is its exact text ("16.00"), pg's own default: never a float (see `decimal()`).
  if (oid === PG_NUMERIC) return (value: string) => value;
  // A BIGINT is a number when it is exact, as mysql2 (supportBigNumbers) and SQLite return it.
  if (oid === PG_INT8) return (value: string) => bigintValue(value);
  const parse = pg.types.getTypeParser(oid, format);
  if (oid === PG_TIMESTAMPTZ && format !== "binary") {
    return (value: string) => {
      const time = postgresTimestamptz(value);
      return time === undefined ? stored(parse(value)) : new StoredDate(time);
    };
  }
  if (oid === PG_TIMESTAMP || oid === PG_TIMESTAMPTZ)
    return (value: string) => stored(parse(value));
  return parse;
}

/**
 * Kysely's PostgreSQL dialect whose one driver Wisent uses too: a reading request's transaction
 * takes its connection from it without Kysely's executor (see `PooledRequestTransaction`).
 * Kysely initialises it (with `kysely`'s first query, which the first reading request's
 * isolation check is) and destroys it with `kysely`.
 */
export class WisentPostgresDialect extends PostgresDialect {
  readonly driver: Driver;
  constructor(config: PostgresDialectConfig) {
    super(config);
    this.driver = new TranslatingDriver(new PostgresDriver(config));
  }
  override createDriver(): Driver {
    return this.driver;
  }
}

function postgresDialect(url: string, options: DatabaseOptions): WisentPostgresDialect {
  const pg = loadPg();
  const pool = new pg.Pool({
    connectionString: url,
    Client: deferredBeginClient(pg),
    max: poolSizeOf(options),
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        pgTypeParser(pg, oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A client losing its server emits "error": an idle one on the pool, a checked-out one (a
  // request's transaction between two queries) on itself. Unhandled, either crashes the process;
  // handled, the checked-out client's next query fails (503) and the pool drops it on release.
  pool.on("error", (error) =>
    console.error(`database pool error (${maskDatabaseUrl(url)}):`, error),
  );
  pool.on("release", (_error, client) => discardHeldBegin(client));
  pool.on("connect", (client) =>
    client.on("error", (error) =>
      console.error(`database connection error (${maskDatabaseUrl(url)}):`, error.message),
    ),
  );
  return new WisentPostgresDialect({ pool });
}

/** Kysely's MySQL dialect whose driver reports failures as coded errors (`TranslatingDriver`). */
class WisentMysqlDialect extends MysqlDialect {
  override createDriver(): Driver {
    return new TranslatingDriver(super.createDriver());
  }
}

function mysqlDialect(url: string, options: DatabaseOptions): MysqlDialect {
  const pool = loadMysql().createPool({
    uri: url,
    connectionLimit: poolSizeOf(options),
    timezone: "Z",
    dateStrings: ["DATE"],
    supportBigNumbers: true,
    // A DECIMAL is its exact text ("16.00"), as on PostgreSQL: never a float (see `decimal()`).
    decimalNumbers: false,
    // BOOLEAN is TINYINT(1): read it back as a boolean, as on PostgreSQL.
    typeCast(field: TypeCastField, next: TypeCastNext) {
      if (field.type === "TINY" && field.length === 1) {
        const value = field.string();
        return value === null ? null : value !== "0";
      }
      if (field.type === "DATETIME" || field.type === "TIMESTAMP") return stored(next());
      return next();
    },
  });
  return new WisentMysqlDialect({ pool });
}
