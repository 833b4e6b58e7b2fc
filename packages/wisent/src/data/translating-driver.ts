import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";
import { databaseFailure } from "./database-failure.js";

/** Rethrows a driver's error as the coded error data/ reports it as (see `databaseFailure`). */
function fail(error: unknown): never {
  throw databaseFailure(error);
}

/** A pooled connection whose failed statements reject with coded errors. */
class TranslatingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.inner.executeQuery<R>(query).catch(fail);
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      fail(error);
    }
  }
}

const inner = (connection: DatabaseConnection) =>
  connection instanceof TranslatingConnection ? connection.inner : connection;

/**
 * A network database's Kysely driver (PostgreSQL's, MySQL's) whose failures (a statement, a
 * connection the pool cannot give, BEGIN, COMMIT) reject with the coded errors of
 * `databaseFailure`, as Rails' adapters translate theirs: a query written by hand on `c.tx()`
 * answers a taken value with a 422 naming the field, and a server that went away with a 503, by
 * the error's own code. SQLite's connection does the same itself (`SqliteConnection`).
 */
export class TranslatingDriver implements Driver {
  /** One wrapper per pooled connection, made when the pool first hands it out. */
  readonly #wrapped = new WeakMap<DatabaseConnection, TranslatingConnection>();

  constructor(private readonly driver: Driver) {}

  init(): Promise<void> {
    return this.driver.init().catch(fail);
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.driver.acquireConnection().then((connection) => {
      let wrapped = this.#wrapped.get(connection);
      if (!wrapped) {
        wrapped = new TranslatingConnection(connection);
        this.#wrapped.set(connection, wrapped);
      }
      return wrapped;
    }, fail);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(inner(connection), settings).catch(fail);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(inner(connection)).catch(fail);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(inner(connection)).catch(fail);
  }

  savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.#required("savepoint")(inner(connection), name, compile).catch(fail);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.#required("rollbackToSavepoint")(inner(connection), name, compile).catch(fail);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ): Promise<void> {
    return this.#required("releaseSavepoint")(inner(connection), name, compile).catch(fail);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(inner(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  /** A savepoint method of the driver (PostgreSQL's and MySQL's have all three). */
  #required(method: "savepoint" | "rollbackToSavepoint" | "releaseSavepoint") {
    const run = this.driver[method];
    // Internal: PostgreSQL's and MySQL's drivers have all three; only they are translated.
    if (!run) throw new Error(`the database driver has no ${method}`);
    return run.bind(this.driver);
  }
}
