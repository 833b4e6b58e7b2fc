import type BetterSqlite3 from "better-sqlite3";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  SelectQueryNode,
} from "kysely";
import { settle } from "./maybe-promise.js";
import type { CachedSqliteDatabase, CachedSqliteStatement } from "./sqlite-statement-cache.js";

type TransactionState = "none" | "pending" | "open";

/**
 * SQLite's one connection, for Kysely and for Wisent's direct reads. Statements come from the
 * prepared-statement cache, and a transaction's BEGIN waits for its first statement: then it is
 * `BEGIN IMMEDIATE` when the transaction was opened to write or that statement writes, else a
 * deferred `BEGIN`. A request that reads takes only WAL's read lock, one that runs no statement
 * costs nothing, and a reading request that writes first still queues for the write lock
 * instead of failing with SQLITE_BUSY when another process (a `wisent start` worker) writes.
 */
export class SqliteConnection implements DatabaseConnection {
  #state: TransactionState = "none";
  #writeIntent = false;

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly statements: CachedSqliteDatabase,
  ) {}

  /** Opens a transaction; BEGIN itself runs before the first statement (see the class). */
  begin(write: boolean): void {
    if (this.#state !== "none") {
      throw new Error("a transaction is already open on the SQLite connection");
    }
    this.#state = "pending";
    this.#writeIntent = write;
  }

  /** Commits the open transaction (nothing to do when no statement ran). */
  commit(): void {
    // A failed COMMIT leaves the transaction open: the state stays so that rollback ends it.
    if (this.#state === "open") this.statements.prepare("commit").run([]);
    this.#state = "none";
  }

  /** Rolls back the open transaction, unless SQLite already did (it does after some errors). */
  rollback(): void {
    this.#state = "none";
    if (this.raw.inTransaction) this.statements.prepare("rollback").run([]);
  }

  /**
   * Runs one statement at once: the rows of a reader (with `one`, at most the first: SQLite then
   * stops at it instead of stepping on to prove there is no other), else the changes.
   */
  run(sql: string, parameters: readonly unknown[], one = false): QueryResult<unknown> {
    const statement = this.#statement(sql);
    if (statement.reader) return { rows: readRows(statement, parameters, one) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
  }

  /** The rows of a reader (see {@link run}) without a result object around them. */
  rows(sql: string, parameters: readonly unknown[], one = false): unknown[] {
    const statement = this.#statement(sql);
    if (statement.reader) return readRows(statement, parameters, one);
    statement.run(parameters);
    return [];
  }

  /** The cached statement of `sql`, after the pending BEGIN (see the class). */
  #statement(sql: string): CachedSqliteStatement {
    const statement = this.statements.prepare(sql);
    if (this.#state === "pending") this.#begin(statement.reader);
    return statement;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return settle(() => this.run(compiledQuery.sql, compiledQuery.parameters) as QueryResult<R>);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error("Sqlite driver only supports streaming of select queries");
    }
    const statement = this.#statement(compiledQuery.sql);
    for (const row of statement.iterate(compiledQuery.parameters)) yield { rows: [row as R] };
  }

  #begin(reader: boolean): void {
    const immediate = this.#writeIntent || !reader;
    this.statements.prepare(immediate ? "begin immediate" : "begin").run([]);
    this.#state = "open";
  }
}

function readRows(
  statement: CachedSqliteStatement,
  parameters: readonly unknown[],
  one: boolean,
): unknown[] {
  if (!one) return statement.all(parameters);
  const row = statement.get(parameters);
  return row === undefined ? [] : [row];
}
