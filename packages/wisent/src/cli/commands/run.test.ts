/**
 * Slow: the deploy path's database commands through the built CLI (dist/), in apps made by
 * `wisent new --dev`: `wisent run <script>` (Rails' runner) with the app's environment and
 * database; a PostgreSQL app in production without DATABASE_URL refusing to run, migrate,
 * prepare or start (naming the variable, never a SQLite file instead); and `wisent db prepare`
 * started by four replicas at once, on SQLite and on PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../data/database.js";
import { dropDatabase } from "../../data/database-admin.js";
import { MIGRATION_TABLE } from "../../data/migrations.js";
import { availableDialects } from "../../data/test-support/test-databases.js";
import { inApp, newApp, SLOW, wisent } from "../generate/test-support/generated-app.js";

const BIN = new URL("../../../dist/cli/main.js", import.meta.url).pathname;
const PG = new URL(
  process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
);
const available = await availableDialects();
const root = mkdtempSync(join(tmpdir(), "wisent-run-"));
const databases: string[] = [];

/** A fresh PostgreSQL database URL of this suite's own (not created). */
function pgUrl(): string {
  const url = new URL(PG);
  url.pathname = `/deploy_run_${randomBytes(5).toString("hex")}`;
  databases.push(url.href);
  return url.href;
}

afterAll(async () => {
  for (const url of databases) await dropDatabase(url);
  rmSync(root, { recursive: true, force: true });
});

/** The names in the app's migration table. */
async function migrated(url: string, cwd: string): Promise<string[]> {
  const db = await openDatabase(url, { cwd });
  try {
    const rows = await db.kysely.selectFrom(MIGRATION_TABLE).select("name").execute();
    return rows.map((row) => String(row.name));
  } finally {
    await db.close();
  }
}

describe.skipIf(!available.postgres)("a PostgreSQL app (wisent new --db postgres)", () => {
  let app: string;
  let url: string;
  beforeAll(async () => {
    app = await newApp(root, "readinglist", ["--db", "postgres"]);
    await wisent(app, ["g", "r", "book", "title"]);
    url = pgUrl();
    writeFileSync(join(app, ".env"), `DATABASE_URL=${url}\n`);
    mkdirSync(join(app, "scripts"));
    writeFileSync(
      join(app, "scripts/count-books.ts"),
      [
        'import { Book } from "../src/models/book.js";',
        'import { db } from "../src/db.js";',
        "",
        "export default async function count(args: string[]): Promise<void> {",
        "  const books = await Book.all(db.kysely);",
        '  console.log(db.dialect, db.url, books.length, "books; args", args.join(","));',
        "}",
        "",
      ].join("\n"),
    );
  }, SLOW);

  it("wisent run runs a script with .env's database, the app's models and its arguments", async () => {
    expect((await inApp(app, BIN, ["db", "prepare"])).code).toBe(0);
    const ran = await inApp(app, BIN, ["run", "scripts/count-books.ts", "a", "--b"]);
    expect(ran.output).toBe(`postgres ${url} 0 books; args a,--b\n`);
    expect(ran.code).toBe(0);
  });

  it.each([[["run", "scripts/count-books.ts"]], [["migrate"]]])(
    "on a database never created, wisent %j says to run wisent db create",
    async (args) => {
      const missing = pgUrl();
      const ran = await inApp(app, BIN, args, { DATABASE_URL: missing });
      expect(ran.output).toMatch(/database "deploy_run_[0-9a-f]+" does not exist/);
      expect(ran.output).toContain(
        ": create it with `wisent db create` (or `wisent db prepare`, which also runs the migrations)\n",
      );
      expect(ran.code).toBe(1);
    },
  );

  it.each([
    [["run", "scripts/count-books.ts"]],
    [["migrate"]],
    [["db", "prepare"]],
    [["start", "--port", "0"]],
  ])(
    "in production without DATABASE_URL, wisent %j refuses, naming DATABASE_URL",
    async (args) => {
      // .env holds development's settings; production gets its URL from the real environment.
      rmSync(join(app, ".env"), { force: true });
      try {
        const ran = await inApp(app, BIN, args, {
          GO_ENV: "production",
          SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
        });
        expect(ran.output).toContain(
          'DATABASE_URL is not set: this app runs on postgres (package.json "wisent": { "database": "postgres" }), and the production environment does not fall back to SQLite. Set DATABASE_URL=postgres://user:password@host:5432/name in the environment',
        );
        expect(ran.output).not.toContain("books; args");
        expect(ran.code).toBe(1);
        expect(existsSync(join(app, "db/production.sqlite"))).toBe(false);
      } finally {
        writeFileSync(join(app, ".env"), `DATABASE_URL=${url}\n`);
      }
    },
    SLOW,
  );

  it(
    "four replicas running wisent db prepare at once create the database once and migrate it",
    async () => {
      const fresh = pgUrl();
      const runs = await Promise.all(
        [1, 2, 3, 4].map(() =>
          inApp(app, BIN, ["db", "prepare"], { GO_ENV: "production", DATABASE_URL: fresh }),
        ),
      );
      for (const run of runs) expect(run.code, run.output).toBe(0);
      const created = runs.filter((run) => /create {2}database/.test(run.output));
      expect(created).toHaveLength(1);
      expect(await migrated(fresh, app)).toEqual([expect.stringMatching(/_create_books$/)]);
    },
    SLOW,
  );
});

describe("a SQLite app", () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp(root, "blog");
    await wisent(app, ["g", "r", "post", "title"]);
    await wisent(app, ["g", "r", "comment", "body"]);
    // A migration that holds SQLite's write lock longer than its busy timeout (5 s), as a long
    // backfill does: replicas waiting on SQLite alone would fail with SQLITE_BUSY.
    writeFileSync(
      join(app, "migrations/20990101000000_slow_backfill.ts"),
      [
        "export async function up(db: any): Promise<void> {",
        '  await db.schema.createTable("backfills").addColumn("id", "integer").execute();',
        "  await new Promise((resolve) => setTimeout(resolve, 6000));",
        "}",
        "",
        "export async function down(db: any): Promise<void> {",
        '  await db.schema.dropTable("backfills").execute();',
        "}",
        "",
      ].join("\n"),
    );
  }, SLOW);

  it(
    "four replicas running wisent db prepare at once on one file migrate it once",
    async () => {
      const runs = await Promise.all(
        [1, 2, 3, 4].map(() => inApp(app, BIN, ["db", "prepare"], { GO_ENV: "production" })),
      );
      for (const run of runs) expect(run.code, run.output).toBe(0);
      expect(runs.filter((run) => run.output.includes("migrated")).length).toBe(1);
      expect(await migrated("sqlite:db/production.sqlite", app)).toEqual([
        expect.stringMatching(/_create_posts$/),
        expect.stringMatching(/_create_comments$/),
        "20990101000000_slow_backfill",
      ]);
    },
    SLOW,
  );
});
