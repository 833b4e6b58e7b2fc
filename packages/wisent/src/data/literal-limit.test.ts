import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { describe, expect, it } from "vitest";
import { literalLimit, SqlPerLimit } from "./literal-limit.js";

const db = new Kysely<{ widgets: { id: string } }>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

describe("literalLimit", () => {
  it("writes the limit into the SQL, leaving the other values bound", () => {
    const compiled = db
      .selectFrom("widgets")
      .selectAll()
      .where("id", ">", "x")
      .limit(literalLimit(20))
      .offset(40)
      .compile();
    expect(compiled.sql).toBe('select * from "widgets" where "id" > ? limit 20 offset ?');
    expect(compiled.parameters).toEqual(["x", 40]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    "refuses %s, naming the limit",
    (bad) => {
      expect(() => literalLimit(bad)).toThrow(/limit must be a whole number from 0, got/);
    },
  );
});

describe("SqlPerLimit", () => {
  it("compiles a text per limit once, and keeps no more than a few dozen", () => {
    let compiled = 0;
    const texts = new SqlPerLimit((limit) => {
      compiled++;
      return db.selectFrom("widgets").selectAll().limit(limit).compile().sql;
    });
    expect(texts.sql(20)).toBe('select * from "widgets" limit 20');
    expect(texts.sql(20)).toBe('select * from "widgets" limit 20');
    expect(compiled).toBe(1);
    for (let limit = 0; limit < 100; limit++) texts.sql(limit);
    const afterFill = compiled;
    texts.sql(99);
    expect(compiled).toBe(afterFill + 1);
    texts.sql(5);
    expect(compiled).toBe(afterFill + 1);
  });
});
