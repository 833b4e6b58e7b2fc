import type BetterSqlite3 from "better-sqlite3";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  SelectQueryNode,
} from "kysely";
import { WisentError } from "../base/wisent-error.js";
import { databaseFailure } from "./database-failure.js";
import type { CachedSqliteDatabase, CachedSqliteStatement } from "./sqlite-statement-cache.js";

/**
 * - none: no transaction.
 * - reading: a reading request's (GET, HEAD): its statements that only read run outside a write
 *   transaction (in the turn's shared read, see the class); the first statement that writes
 *   begins the transaction (IMMEDIATE).
 * - pending: opened to write; BEGIN IMMEDIATE runs before the first statement.
 * - open: BEGIN has run.
 */
type TransactionState = "none" | "reading" | "pending" | "open";

const PRAGMA = /^\s*pragma\b/i;

/**
 * SQLite's one connection, for Kysely and for Wisent's direct reads. Statements come from the
 * prepared-statement cache, and a transaction's BEGIN waits for the first statement that needs
 * it. A transaction opened to write begins (`BEGIN IMMEDIATE`) before its first statement, so a
 * request that reads before it writes queues for the write lock instead of failing with
 * SQLITE_BUSY when another process (a `wisent start` worker) writes. A reading request's reads
 * run outside any write transaction, as in PostgreSQL's default READ COMMITTED; its first write
 * begins the transaction (IMMEDIATE), which then holds every later statement until commit or
 * rollback. A request that runs no statement costs nothing.
 *
 * Reading requests' reads share one read transaction per turn of the event loop: the first
 * opens it (a deferred BEGIN), the turn's end commits it. A read on its own takes and gives back
 * the WAL's read lock and reads the file's size, three system calls that were about 2 of a point
 * read's 3.3 us (bench/data/run.mjs: 1.2-1.6 us a read when 5 to 20 share a transaction). The
 * requests a turn serves arrived before its first read, so what they see is at least as new as
 * any commit a client saw before sending them (a redirect after a write on another worker
 * included). Reads outside a request (a timer's, a job poller's, which run before a turn's
 * requests are read from their sockets) open none and run on their own, but use a shared read
 * already open. Any statement that is not a read (a write, DDL, a pragma that sets, a savepoint)
 * ends the shared read first, so a write is never held back by it and commits when it runs.
 */
export class SqliteConnection implements DatabaseConnection {
  #state: TransactionState = "none";
  /** A read transaction of this turn's reads is open (see the class). */
  #sharedRead = false;
  #endScheduled = false;

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly statements: CachedSqliteDatabase,
  ) {}

  /**
   * Opens a transaction: `write` for one that may write, else a reading request's (see the
   * class); BEGIN itself waits for the statement that needs it.
   */
  begin(write: boolean): void {
    if (this.#state !== "none") {
      // Internal: Kysely and the request transaction open one at a time; this guards that order.
      throw new Error("a transaction is already open on the SQLite connection");
    }
    this.#state = write ? "pending" : "reading";
  }

  /** Commits the open transaction (nothing to do when no statement ran). */
  commit(): void {
    // A failed COMMIT leaves the transaction open: the state stays so that rollback ends it.
    if (this.#state === "open") {
      try {
        this.statements.prepare("commit").run([]);
      } catch (error) {
        throw databaseFailure(error);
      }
    }
    this.#state = "none";
  }

  /** Rolls back the open transaction, unless SQLite already did (it does after some errors). */
  rollback(): void {
    this.#state = "none";
    // A reading request's rollback may end the turn's shared read: harmless, it only read.
    this.#sharedRead = false;
    if (this.raw.inTransaction) this.statements.prepare("rollback").run([]);
  }

  /**
   * Runs one statement at once: the rows of a reader (with `one`, at most the first: SQLite then
   * stops at it instead of stepping on to prove there is no other), else the changes.
   */
  run(sql: string, parameters: readonly unknown[], one = false): QueryResult<unknown> {
    try {
      const statement = this.#statement(sql);
      if (statement.reader) return { rows: readRows(statement, parameters, one) };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return {
        numAffectedRows: BigInt(changes),
        insertId: BigInt(lastInsertRowid),
        rows: [],
      };
    } catch (error) {
      // A taken value, a refused value, a busy database: coded, as data/ reports them.
      throw databaseFailure(error);
    }
  }

  /** The rows of a reader (see {@link run}) without a result object around them. */
  rows(sql: string, parameters: readonly unknown[], one = false): unknown[] {
    try {
      const statement = this.#statement(sql);
      if (statement.reader) return readRows(statement, parameters, one);
      statement.run(parameters);
      return [];
    } catch (error) {
      throw databaseFailure(error);
    }
  }

  /** The cached statement of `sql`, after the BEGIN it needs, if any (see the class). */
  #statement(sql: string): CachedSqliteStatement {
    // SQLite works a pragma out as it prepares it (`foreign_keys = OFF` in a transaction does
    // nothing), so one is prepared outside the shared read. A select needs no look.
    if (this.#sharedRead && (sql.charCodeAt(0) | 32) !== 115 && PRAGMA.test(sql)) {
      this.#endSharedRead();
    }
    const statement = this.statements.prepare(sql);
    const state = this.#state;
    if (state === "open") return statement;
    if (statement.reader && statement.readonly) {
      if (state === "pending") this.#begin();
      else if (state === "reading" && !this.#sharedRead) this.#shareRead();
      return statement;
    }
    if (this.#sharedRead) this.#endSharedRead();
    if (state === "pending" || (state === "reading" && !statement.readonly)) this.#begin();
    return statement;
  }

  /** Opens this turn's shared read transaction, committed at the turn's end (see the class). */
  #shareRead(): void {
    // A transaction begun by hand (`BEGIN`, a savepoint outside one) holds the reads, as before.
    if (this.raw.inTransaction) return;
    this.statements.prepare("begin").run([]);
    this.#sharedRead = true;
    if (!this.#endScheduled) {
      this.#endScheduled = true;
      setImmediate(this.#atTurnEnd);
    }
  }

  /** Commits the shared read transaction, if SQLite has not ended it already. */
  #endSharedRead(): void {
    this.#sharedRead = false;
    if (this.raw.open && this.raw.inTransaction) this.statements.prepare("commit").run([]);
  }

  readonly #atTurnEnd = (): void => {
    this.#endScheduled = false;
    if (!this.#sharedRead) return;
    try {
      this.#endSharedRead();
    } catch {
      // A streamed read still iterating keeps the connection busy: try again next turn.
      this.#sharedRead = true;
      this.#endScheduled = true;
      setImmediate(this.#atTurnEnd);
    }
  };

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(
        this.run(compiledQuery.sql, compiledQuery.parameters) as QueryResult<R>,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new WisentError(
        "E_INVALID_ARGUMENT",
        "stream(): SQLite streams select queries only; execute() the others",
      );
    }
    try {
      const statement = this.#statement(compiledQuery.sql);
      for (const row of statement.iterate(compiledQuery.parameters)) yield { rows: [row as R] };
    } catch (error) {
      throw databaseFailure(error);
    }
  }

  #begin(): void {
    if (this.#sharedRead) this.#endSharedRead();
    this.statements.prepare("begin immediate").run([]);
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
