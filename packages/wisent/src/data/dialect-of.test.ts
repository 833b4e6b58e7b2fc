import { Kysely, MysqlDialect, PostgresDialect } from "kysely";
import { describe, expect, it } from "vitest";
import type { AnyDB } from "./any-db.js";
import { openDatabase } from "./database.js";
import { dialectOf } from "./dialect-of.js";

/** A Kysely-shaped value whose adapter is an instance of `Adapter`. */
function withAdapter(Adapter: new () => object): Kysely<AnyDB> {
  return { getExecutor: () => ({ adapter: new Adapter() }) } as unknown as Kysely<AnyDB>;
}

describe("dialectOf", () => {
  it("names the engine of a database the framework opened", async () => {
    const db = await openDatabase("sqlite::memory:");
    try {
      expect(dialectOf(db.kysely)).toBe("sqlite");
    } finally {
      await db.close();
    }
    const pool = {} as never;
    expect(dialectOf(new Kysely<AnyDB>({ dialect: new PostgresDialect({ pool }) }))).toBe(
      "postgres",
    );
    expect(dialectOf(new Kysely<AnyDB>({ dialect: new MysqlDialect({ pool }) }))).toBe("mysql");
  });

  it("knows adapters from another copy of Kysely in the process, subclasses included", () => {
    class SqliteAdapter {}
    class TransactionalDdlSqliteAdapter extends SqliteAdapter {}
    class PostgresAdapter {}
    class MysqlAdapter {}
    expect(dialectOf(withAdapter(TransactionalDdlSqliteAdapter))).toBe("sqlite");
    expect(dialectOf(withAdapter(PostgresAdapter))).toBe("postgres");
    expect(dialectOf(withAdapter(MysqlAdapter))).toBe("mysql");
    class OracleAdapter {}
    expect(() => dialectOf(withAdapter(OracleAdapter))).toThrow(
      "unsupported database adapter OracleAdapter",
    );
  });
});
