import type BetterSqlite3 from "better-sqlite3";
import {
  createQueryId,
  type DatabaseConnection,
  type Driver,
  IdentifierNode,
  type QueryCompiler,
  RawNode,
  type TransactionSettings,
} from "kysely";
import { WisentError } from "../base/wisent-error.js";
import { ConnectionLock } from "./connection-lock.js";
import { SqliteConnection } from "./sqlite-connection.js";
import { cacheStatements } from "./sqlite-statement-cache.js";

/** How to open the database file (with its pragmas) and how many statements to cache. */
export interface SqliteDriverConfig {
  open(): BetterSqlite3.Database;
  statementCacheSize: number;
}

const savepointCommand = (command: string, name: string) =>
  RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);

/**
 * Kysely's driver for SQLite's single connection, with Wisent's {@link SqliteConnection}
 * (cached statements, BEGIN on the first statement) and a {@link ConnectionLock} that is free
 * of promises when nobody waits. Request transactions take the same lock directly
 * (`sqliteRequestTransaction`), so Kysely queries and requests never share the connection at once.
 */
export class WisentSqliteDriver implements Driver {
  readonly lock = new ConnectionLock();
  #connection: SqliteConnection | undefined;
  #raw: BetterSqlite3.Database | undefined;
  #destroyed = false;

  constructor(private readonly config: SqliteDriverConfig) {}

  /** The connection, opening the file on first use. */
  connection(): SqliteConnection {
    if (!this.#connection) {
      if (this.#destroyed)
        throw new WisentError("E_DATABASE_CLOSED", "the SQLite database has been closed");
      const raw = this.config.open();
      const size = this.config.statementCacheSize;
      this.#raw = raw;
      this.#connection = new SqliteConnection(raw, cacheStatements(raw, size));
    }
    return this.#connection;
  }

  async init(): Promise<void> {
    this.connection();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire();
    return this.connection();
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings) {
    // Kysely's own transactions (migrations, `db.transaction()`) are there to write.
    (connection as SqliteConnection).begin(true);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteConnection).rollback();
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    await connection.executeQuery(compile(savepointCommand("savepoint", name), createQueryId()));
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    await connection.executeQuery(compile(savepointCommand("rollback to", name), createQueryId()));
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    await connection.executeQuery(compile(savepointCommand("release", name), createQueryId()));
  }

  async releaseConnection(): Promise<void> {
    this.lock.release();
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    this.#raw?.close();
    this.#raw = undefined;
    this.#connection = undefined;
  }
}
