import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteConnection } from "./sqlite-connection.js";
import { cacheStatements } from "./sqlite-statement-cache.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reading requests' reads share one read transaction per turn of the event loop; anything else
 * ends it first. A second connection (another process, as a
 * `wisent start` worker or `wisent db` would be) shows what each sees and when writes land.
 */
describe("SqliteConnection's shared read of a turn", () => {
  let dir: string;
  let raw: BetterSqlite3.Database;
  let other: BetterSqlite3.Database;
  let connection: SqliteConnection;
  const count = () =>
    (connection.rows("select count(*) as n from t", [], true)[0] as { n: number }).n;
  const otherCount = () => (other.prepare("select count(*) as n from t").get() as { n: number }).n;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "wisent-shared-read-"));
    const file = join(dir, "app.sqlite");
    raw = new BetterSqlite3(file);
    raw.pragma("journal_mode = WAL");
    raw.exec("create table t (id integer primary key, v text)");
    other = new BetterSqlite3(file);
    connection = new SqliteConnection(raw, cacheStatements(raw));
  });

  afterEach(async () => {
    await nextTurn();
    other.close();
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The rows a reading request (GET, HEAD) counts: its transaction begun, read, ended. */
  const countReading = () => {
    connection.begin(false);
    try {
      return count();
    } finally {
      connection.commit();
    }
  };

  it("reading requests of one turn see the database as of its first read; the next turn sees what others committed", async () => {
    expect(countReading()).toBe(0);
    expect(raw.inTransaction).toBe(true);
    other.prepare("insert into t (v) values ('from another connection')").run();
    expect(countReading()).toBe(0);
    await nextTurn();
    expect(raw.inTransaction).toBe(false);
    expect(countReading()).toBe(1);
  });

  it("reads outside a request (a timer's, a job poller's) open no shared read", () => {
    expect(count()).toBe(0);
    expect(raw.inTransaction).toBe(false);
    other.prepare("insert into t (v) values ('from another connection')").run();
    expect(count()).toBe(1);
  });

  it("a write ends the shared read first and is committed when it runs", () => {
    expect(countReading()).toBe(0);
    connection.run("insert into t (v) values (?)", ["mine"]);
    expect(raw.inTransaction).toBe(false);
    expect(otherCount()).toBe(1);
    // A read after it starts a new shared read, which sees the write.
    expect(countReading()).toBe(1);
  });

  it("a write transaction after shared reads begins IMMEDIATE and commits; a reading request's first write does too", () => {
    expect(countReading()).toBe(0);
    connection.begin(true);
    connection.run("insert into t (v) values (?)", ["in a transaction"]);
    expect(otherCount()).toBe(0);
    connection.commit();
    expect(otherCount()).toBe(1);

    connection.begin(false);
    expect(count()).toBe(1);
    connection.run("insert into t (v) values (?)", ["reading, then writing"]);
    expect(otherCount()).toBe(1);
    connection.commit();
    expect(otherCount()).toBe(2);
  });

  it("a reading request's rollback leaves nothing open; the turn's end then has nothing to commit", async () => {
    connection.begin(false);
    expect(count()).toBe(0);
    connection.rollback();
    expect(raw.inTransaction).toBe(false);
    await nextTurn();
    expect(raw.inTransaction).toBe(false);
  });

  it("a pragma that sets runs outside the shared read, where it takes effect", () => {
    expect(countReading()).toBe(0);
    connection.run("pragma foreign_keys = OFF", []);
    expect(connection.rows("pragma foreign_keys", [], true)).toEqual([{ foreign_keys: 0 }]);
  });

  it("a transaction begun by hand holds a reading request's reads, as before: no shared read is begun inside it", () => {
    connection.run("savepoint by_hand", []);
    connection.run("insert into t (v) values (?)", ["in the savepoint"]);
    expect(countReading()).toBe(1);
    expect(otherCount()).toBe(0);
    connection.run("release by_hand", []);
    expect(raw.inTransaction).toBe(false);
    expect(otherCount()).toBe(1);
  });

  it("a database closed with a shared read open is left alone at the turn's end", async () => {
    expect(countReading()).toBe(0);
    raw.close();
    await nextTurn();
    expect(raw.open).toBe(false);
    raw = new BetterSqlite3(join(dir, "app.sqlite"));
  });
});
