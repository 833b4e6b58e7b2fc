import type pgModule from "pg";
import { CARRIES_BEGIN_KEY } from "../base/symbols.js";

type Pg = typeof pgModule;
type QueryCallback = (error: Error | null, result?: unknown) => void;

/**
 * Whether a query object handed to pg's `Client#query` sends a BEGIN before its own statement
 * (see {@link deferredBeginClient}).
 * @example carriesBegin(query) // true for a transaction's first statement with parameters
 */
export function carriesBegin(query: unknown): boolean {
  return typeof query === "object" && query !== null && CARRIES_BEGIN_KEY in query;
}

/** What `query` answers for a BEGIN held back, or a COMMIT or ROLLBACK of nothing sent. */
const heldBack = (command: string) => ({ command, rowCount: null, oid: 0, rows: [], fields: [] });

const isText = (config: unknown): config is string => typeof config === "string";
/** A transaction's start or end, as Kysely sends it; anchored, so other SQL fails at once. */
const TRANSACTION_COMMAND = /^\s*(begin|commit|rollback)\s*$/i;
const noValues = (values: unknown) =>
  values === undefined || (Array.isArray(values) && values.length === 0);

/**
 * A pg `Client` class whose plain `BEGIN` (the one Kysely sends to start a transaction) goes out
 * with the transaction's first statement, in the same write and under one Sync: a transaction
 * costs one round trip fewer, so a create is two (BEGIN with INSERT, then COMMIT) instead of
 * three. PostgreSQL runs the two messages in order and skips the statement when BEGIN fails, so
 * the statement never runs outside the transaction it was sent in.
 *
 * - `query("begin")` answers at once and sends nothing; the next query carries it.
 * - The next query with parameters (extended protocol) carries the BEGIN itself. One without
 *   parameters (a savepoint, raw SQL that may hold several statements) waits for a BEGIN sent
 *   on its own first, as before.
 * - A COMMIT or ROLLBACK with nothing sent since BEGIN sends nothing: the transaction was empty.
 * - {@link discardHeldBegin}, for the pool's "release", drops a BEGIN that never went out, so a
 *   connection never goes back to the pool owing one.
 *
 * This leans on pg's `Query`: its `submit(connection)` (the documented hook for custom query
 * objects) and the `handleCommandComplete` its client calls for each statement done.
 * `postgres-deferred-begin.test.ts` runs it against a real server and fails if either changes.
 *
 * @example new pg.Pool({ connectionString, Client: deferredBeginClient(pg) })
 */
export function deferredBeginClient(pg: Pg): Pg["Client"] {
  const Query = pg.Query as unknown as PgQueryClass;

  /** A query whose Parse, Bind and Execute follow those of a BEGIN, under the query's Sync. */
  class BeginThenQuery extends Query {
    readonly [CARRIES_BEGIN_KEY] = true;
    #beginDone = false;

    override submit(connection: PgConnection): Error | null {
      connection.stream.cork?.();
      try {
        connection.parse({ text: "begin" });
        connection.bind({});
        connection.execute({});
        return super.submit(connection);
      } finally {
        connection.stream.uncork?.();
      }
    }

    /** The first statement done is the BEGIN: not this query's result. */
    override handleCommandComplete(message: unknown, connection: PgConnection): void {
      if (this.#beginDone) super.handleCommandComplete(message, connection);
      else this.#beginDone = true;
    }
  }

  class DeferredBeginClient extends pg.Client {
    #beginHeld = false;

    /** Drops a BEGIN still held back (nothing was sent for it). */
    discardHeldBegin(): void {
      this.#beginHeld = false;
    }

    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through
    override query(config: any, values?: any, callback?: any): any {
      const plain = isText(config) && callback === undefined && typeof values !== "function";
      // Not trim().toLowerCase() of every statement: that copies each query's whole SQL.
      const command = plain ? (TRANSACTION_COMMAND.exec(config)?.[1]?.toLowerCase() ?? "") : "";
      if (!this.#beginHeld) {
        if (command === "begin" && noValues(values)) {
          this.#beginHeld = true;
          return Promise.resolve(heldBack("BEGIN"));
        }
        return super.query(config, values, callback);
      }
      this.#beginHeld = false;
      if ((command === "commit" || command === "rollback") && noValues(values)) {
        return Promise.resolve(heldBack(command.toUpperCase()));
      }
      if (plain && !noValues(values)) {
        return new Promise((resolve, reject) => {
          const query = new BeginThenQuery(config, values, (error, result) =>
            error ? reject(error) : resolve(result),
          );
          super.query(query as unknown as pgModule.Submittable);
        });
      }
      // No parameters, a callback or a custom query object: BEGIN on its own, then the query.
      const begin = super.query("begin") as Promise<unknown>;
      if (plain) return begin.then(() => super.query(config, values));
      begin.catch(() => {}); // the query after it fails the same way, or runs as before
      return super.query(config, values, callback);
    }
  }

  return DeferredBeginClient as unknown as Pg["Client"];
}

/**
 * Drops the BEGIN a client released to the pool still holds back, if it is a
 * {@link deferredBeginClient}'s.
 * @example pool.on("release", (_error, client) => discardHeldBegin(client))
 */
export function discardHeldBegin(client: unknown): void {
  (client as { discardHeldBegin?: () => void }).discardHeldBegin?.();
}

/** The parts of pg's connection a query writes its messages with. */
interface PgConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name?: string }): void;
  bind(config: Record<string, unknown>): void;
  execute(config: Record<string, unknown>): void;
}

/** pg's `Query`, as far as a query sent after a BEGIN needs it. */
type PgQueryClass = new (
  text: string,
  values: unknown[],
  callback: QueryCallback,
) => {
  submit(connection: PgConnection): Error | null;
  handleCommandComplete(message: unknown, connection: PgConnection): void;
};
