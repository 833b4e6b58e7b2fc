import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from "kysely";
import { describe, expect, it } from "vitest";
import type { AnyDB } from "./any-db.js";
import { onlyReads } from "./read-only-query.js";

// Compiles PostgreSQL queries without a server.
const db = new Kysely<AnyDB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const raw = (text: string) => sql.raw(text).compile(db);
const widgets = db.selectFrom("widgets").selectAll();

const READS: [string, CompiledQuery][] = [
  ["a builder select", widgets.where("id", "=", "x").compile()],
  ["a builder count", db.selectFrom("widgets").select(db.fn.countAll().as("count")).compile()],
  ["a builder select with a subquery", widgets.where("id", "in", widgets.select("id")).compile()],
  ["raw select (the model's find)", raw('select * from "widgets" where "id" = $1')],
  ["raw select in upper case after whitespace", raw('\n  SELECT * FROM "widgets"')],
  ["raw select with a trailing semicolon", raw("select 1;")],
  ["sql`` select", sql`select ${1} as one`.compile(db)],
  ["a column named like a keyword", raw('select "for_update", "update" from "widgets"')],
  [
    "built-in functions, keywords and type sizes before parentheses",
    raw(
      `select count(*), coalesce(max("n"), 0), Lower("t"), "JSONB_AGG"."x", cast($1 as numeric(10, 2)),
        row_number() over (partition by "k" order by "n"), exists (select 1 from t where (a or b))
        from (values (1), (2)) as v where "id" in ($2, $3) and "tags" = any($4)`,
    ),
  ],
  ["explain of a select (the list's estimate)", raw('explain select * from "widgets"')],
  [
    "a builder select of built-ins",
    db
      .selectFrom("widgets")
      .select((eb) => eb.fn.coalesce("title", eb.val("x")).as("t"))
      .where("id", "in", ["a", "b"])
      .compile(),
  ],
];

const WRITES: [string, CompiledQuery][] = [
  ["a builder insert", db.insertInto("widgets").values({ title: "x" }).compile()],
  ["a builder update", db.updateTable("widgets").set({ title: "x" }).compile()],
  ["a builder delete", db.deleteFrom("widgets").where("id", "=", "x").compile()],
  ["a builder select for update", widgets.forUpdate().compile()],
  ["a builder select for share", widgets.forShare().compile()],
  ["a builder select for no key update", widgets.forNoKeyUpdate().skipLocked().compile()],
  ["a builder select for key share", widgets.forKeyShare().compile()],
  [
    "a builder select with a CTE that inserts",
    db
      .with("made", (q) => q.insertInto("widgets").values({ title: "x" }).returningAll())
      .selectFrom("made")
      .selectAll()
      .compile(),
  ],
  ["explain analyze (it runs the statement)", raw("explain analyze delete from t")],
  ["explain analyze of a select", raw("explain analyze select * from t")],
  ["explain with options", raw("explain (analyze) select * from t")],
  ["explain of a delete", raw("explain delete from t")],
  ["explain of a select for update", raw("explain select * from t for update")],
  ["explain of a select of the app's own function", raw("explain select refresh_widgets()")],
  ["raw insert", raw('insert into "widgets" ("id") values ($1)')],
  ["raw update", raw('update "widgets" set "title" = $1')],
  ["raw delete", raw('delete from "widgets" where "id" = $1')],
  ["raw with", raw("with x as (delete from t returning *) select * from x")],
  ["raw select for update", raw('select * from "widgets" where "id" = $1 for update')],
  ["raw select for share", raw("select * from t FOR  SHARE")],
  ["raw select for no key update", raw("select * from t for no key update nowait")],
  ["raw select for key share", raw("select * from t for key share")],
  ["raw select lock in share mode (MySQL)", raw("select * from t lock in share mode")],
  ["raw select into", raw("select * into archive from t")],
  ["two statements", raw("select 1; delete from t")],
  ["a call", raw("call refresh_widgets()")],
  ["a do block", raw("do $$ begin perform 1; end $$")],
  ["a savepoint", raw("savepoint sp1")],
  ["a set", raw("set statement_timeout = 0")],
  ["a comment first", raw("/* hint */ select 1")],
  ["a word that begins with select", raw("selector()")],
  ["a function of the app's own", raw("select refresh_widgets()")],
  [
    "a builder select of an unknown function",
    db.selectNoFrom((eb) => eb.fn("bump", []).as("n")).compile(),
  ],
  ["set_config (lasts for the transaction)", raw("select set_config('app.user', $1, true)")],
  ["nextval", raw("select nextval('widgets_seq')")],
  ["an advisory lock", raw("select pg_advisory_xact_lock(1)")],
  ["now(), the transaction's start", raw("select now()")],
  ["CURRENT_TIMESTAMP", raw("select CURRENT_TIMESTAMP as t")],
  ["a qualified function with a built-in's name", raw("select app.count(*) from t")],
  ["a quoted function of the app's own", raw('select "Count"(*) from t')],
  // Not a call, but as good as one for the scan: only a BEGIN it did not need.
  ["an alias's column list", raw('select * from (values (1)) as v ("n")')],
];

describe("onlyReads", () => {
  it.each(READS)("counts %s as only reading", (_, query) => {
    expect(onlyReads(query)).toBe(true);
  });

  it.each(WRITES)("counts %s as a write", (_, query) => {
    expect(onlyReads(query)).toBe(false);
  });
});
