import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from "kysely";
import type { AnyDB } from "./any-db.js";
import type { DialectName } from "./database-url.js";

/**
 * The engine behind a Kysely instance (a transaction or the Migrator's instance included),
 * read from its adapter so that migrations, which only receive a Kysely, can pick column types.
 */
export function dialectOf(db: Kysely<AnyDB>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return "sqlite";
  if (adapter instanceof PostgresAdapter) return "postgres";
  if (adapter instanceof MysqlAdapter) return "mysql";
  throw new Error(`unsupported database adapter ${adapter.constructor.name}`);
}
