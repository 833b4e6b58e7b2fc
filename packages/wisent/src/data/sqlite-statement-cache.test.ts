import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { cacheStatements } from "./sqlite-statement-cache.js";

describe("cacheStatements", () => {
  it("prepares each SQL text once", () => {
    const raw = new BetterSqlite3(":memory:");
    const prepare = vi.spyOn(raw, "prepare");
    const db = cacheStatements(raw);
    db.prepare("create table t (id integer)").run([]);
    const insert = db.prepare("insert into t values (?)");
    insert.run([1]);
    expect(db.prepare("insert into t values (?)")).toBe(insert);
    db.prepare("insert into t values (?)").run([2]);
    expect(db.prepare("select count(*) as n from t").all([])).toEqual([{ n: 2 }]);
    expect(prepare).toHaveBeenCalledTimes(3);
    db.close();
  });

  it("binds booleans and dates, and reads boolean, timestamp and json columns back", () => {
    const db = cacheStatements(new BetterSqlite3(":memory:"));
    db.prepare("create table t (b boolean, at timestamp, doc json, plain text)").run([]);
    const at = new Date("2024-01-02T03:04:05.678Z");
    db.prepare("insert into t values (?, ?, ?, ?)").run([true, at, '{"a":[1]}', "x"]);
    expect(db.prepare("select * from t").all([])).toEqual([
      { b: true, at, doc: { a: [1] }, plain: "x" },
    ]);
    expect(db.prepare("select plain from t where b = ?").all([true])).toEqual([{ plain: "x" }]);
    expect([...db.prepare("select b from t").iterate([])]).toEqual([{ b: true }]);
    expect(db.prepare("select * from t where plain = ?").get(["x"])).toEqual({
      b: true,
      at,
      doc: { a: [1] },
      plain: "x",
    });
    expect(db.prepare("select * from t where plain = ?").get(["none"])).toBeUndefined();
    db.close();
  });

  it("forgets cached readers after a schema change", () => {
    const db = cacheStatements(new BetterSqlite3(":memory:"));
    db.prepare("create table t (b integer)").run([]);
    db.prepare("insert into t values (1)").run([]);
    expect(db.prepare("select * from t").all([])).toEqual([{ b: 1 }]);
    db.prepare("drop table t").run([]);
    db.prepare("create table t (b boolean)").run([]);
    db.prepare("insert into t values (1)").run([]);
    expect(db.prepare("select * from t").all([])).toEqual([{ b: true }]);
    db.close();
  });

  it("keeps at most the configured number of statements", () => {
    const raw = new BetterSqlite3(":memory:");
    const prepare = vi.spyOn(raw, "prepare");
    const db = cacheStatements(raw, 2);
    for (const n of [1, 2, 3, 1]) db.prepare(`select ${n}`);
    expect(prepare).toHaveBeenCalledTimes(4); // "select 1" was evicted by "select 3"
    db.close();
  });
});
