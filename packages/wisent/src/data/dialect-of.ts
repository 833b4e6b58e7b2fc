import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from "kysely";
import { WisentError } from "../base/wisent-error.js";
import type { AnyDB } from "./any-db.js";
import type { DialectName } from "./database-url.js";

const ADAPTER_NAMES: Readonly<Record<string, DialectName>> = {
  SqliteAdapter: "sqlite",
  PostgresAdapter: "postgres",
  MysqlAdapter: "mysql",
};

/**
 * The engine behind a Kysely instance (a transaction or the Migrator's instance included),
 * read from its adapter so that migrations, which only receive a Kysely, can pick column types.
 * @param db - a Kysely instance or transaction
 * @returns `sqlite`, `postgres` or `mysql`
 * @throws WisentError `E_INVALID_ARGUMENT` for a Kysely whose adapter is none of the three
 * @example if (dialectOf(db) === "postgres") await sql`create extension if not exists citext`.execute(db);
 */
export function dialectOf(db: Kysely<AnyDB>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return "sqlite";
  if (adapter instanceof PostgresAdapter) return "postgres";
  if (adapter instanceof MysqlAdapter) return "mysql";
  // Kysely can be in a process twice: the CLI's copy opened the database, and a migration run by
  // it imports the package's bundle, which has its own. Its adapters' class names are the same.
  for (let proto = Object.getPrototypeOf(adapter); proto; proto = Object.getPrototypeOf(proto)) {
    const dialect = ADAPTER_NAMES[(proto.constructor as { name: string }).name];
    if (dialect) return dialect;
  }
  throw new WisentError(
    "E_INVALID_ARGUMENT",
    `unsupported database adapter ${adapter.constructor.name}`,
  );
}
