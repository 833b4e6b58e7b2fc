/**
 * Slow: the database commands through the built CLI (dist/) in real apps made by `wisent new
 * --dev` in temp folders (node_modules linked to the repository's): the issue's destroy-after-
 * migrate sequence, NO FILE, `g migration`, `db create|drop|seed|reset|rollback|prepare` on
 * SQLite and PostgreSQL, and the generated Vitest setup migrating the test database.
 */

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../data/database.js";
import { availableDialects } from "../../data/test-support/test-databases.js";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const VITEST = join(REPO, "node_modules/vitest/vitest.mjs");
const SLOW = 180_000;
const PG = process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const available = await availableDialects();

/** Runs `wisent ...args` in the app; `input` answers its questions. */
function wisent(
  dir: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: cleanEnv(options.env),
    input: options.input ?? "",
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr };
}

const roots: string[] = [];
afterAll(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

async function newApp(name = "blog"): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "wisent-db-cli-"));
  roots.push(root);
  const { io, stderr } = memoryIO({ cwd: root });
  expect(await runCli(["new", name, "--dev", "--skip-install"], io)).toBe(0);
  expect(stderr()).toBe("");
  const dir = join(root, name);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

function migrationFile(dir: string, suffix: string): string {
  const file = readdirSync(join(dir, "migrations")).find((f) => f.endsWith(`_${suffix}.ts`));
  if (!file) throw new Error(`no migration ${suffix}`);
  return file.replace(/\.ts$/, "");
}

async function columnsOf(url: string, cwd: string, table: string): Promise<string[]> {
  const db = await openDatabase(url, { cwd });
  try {
    const found = (await db.kysely.introspection.getTables()).find((t) => t.name === table);
    return found ? found.columns.map((c) => c.name).sort() : [];
  } finally {
    await db.close();
  }
}

const DEV = "sqlite:db/development.sqlite";

describe("migrations that follow the code (SQLite)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await newApp();
  }, SLOW);

  it(
    "the issue's sequence: g r gadget name && migrate && d r gadget -y && migrate, and migrate down",
    () => {
      expect(wisent(dir, ["g", "r", "gadget", "name"]).code).toBe(0);
      const gadgets = migrationFile(dir, "create_gadgets");
      expect(wisent(dir, ["migrate"]).stdout).toContain(`migrated  ${gadgets}`);
      const destroyed = wisent(dir, ["d", "r", "gadget", "-y"]);
      expect(destroyed.stdout).toContain(`      revert  ${gadgets}\n`);
      expect(destroyed.stdout).toContain(`      remove  migrations/${gadgets}.ts\n`);
      const again = wisent(dir, ["migrate"]);
      expect(again.out).toBe("nothing to migrate (database sqlite:db/development.sqlite)\n");
      expect(again.code).toBe(0);
      const down = wisent(dir, ["migrate", "down"]);
      expect(down.out).toBe("nothing to revert (database sqlite:db/development.sqlite)\n");
    },
    SLOW,
  );

  it(
    "answering no (or --keep-migration) keeps a migration that has run, and its table",
    async () => {
      expect(wisent(dir, ["g", "r", "gizmo", "name"]).code).toBe(0);
      const gizmos = migrationFile(dir, "create_gizmos");
      expect(wisent(dir, ["migrate"]).code).toBe(0);
      // The revert question first, then one question a file: n, then y for every file.
      const answered = wisent(dir, ["d", "r", "gizmo"], { input: `n\n${"y\n".repeat(20)}` });
      expect(answered.stdout).toContain("Roll back");
      expect(answered.stdout).toContain(
        `        skip  migrations/${gizmos}.ts (kept: it has run on sqlite:db/development.sqlite)`,
      );
      expect(answered.stdout).toContain("      remove  src/models/gizmo.ts");
      expect(existsSync(join(dir, "migrations", `${gizmos}.ts`))).toBe(true);
      expect(await columnsOf(DEV, dir, "gizmos")).toContain("name");
      expect(wisent(dir, ["migrate", "status"]).stdout).toContain(`up    ${gizmos}  `);

      // Generating it again names the migration that creates its table already.
      expect(wisent(dir, ["g", "r", "gizmo", "name"]).stderr).toContain(
        `migrations/${gizmos}.ts creates the gizmos table already`,
      );
      expect(wisent(dir, ["g", "r", "doohickey", "name"]).code).toBe(0);
      const doohickeys = migrationFile(dir, "create_doohickeys");
      expect(wisent(dir, ["migrate"]).code).toBe(0);
      const kept = wisent(dir, ["d", "r", "doohickey", "-y", "--keep-migration"]);
      expect(kept.stdout).not.toContain("revert");
      expect(existsSync(join(dir, "migrations", `${doohickeys}.ts`))).toBe(true);
      rmSync(join(dir, "migrations", `${doohickeys}.ts`));
      rmSync(join(dir, "migrations", `${gizmos}.ts`));
    },
    SLOW,
  );

  it(
    "a recorded migration whose file is gone is NO FILE and never blocks the others",
    () => {
      const status = wisent(dir, ["migrate", "status"]);
      expect(status.stdout).toMatch(/^up {4}\d{14}_create_gizmos {2}NO FILE {2}/m);
      expect(status.stdout).toMatch(/^up {4}\d{14}_create_doohickeys {2}NO FILE {2}/m);
      expect(wisent(dir, ["g", "r", "widget", "title"]).code).toBe(0);
      const widgets = migrationFile(dir, "create_widgets");
      expect(wisent(dir, ["migrate"]).stdout).toBe(`migrated  ${widgets}\n`);
      expect(wisent(dir, ["migrate", "down"]).stdout).toBe(`reverted  ${widgets}\n`);
      const blocked = wisent(dir, ["migrate", "down"]);
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toMatch(
        /could not be reverted: its file is gone from .*migrations, so its down cannot run: restore \d{14}_create_doohickeys\.ts/,
      );
    },
    SLOW,
  );
});

describe("wisent g migration (SQLite)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await newApp();
    expect(wisent(dir, ["g", "r", "post", "title"]).code).toBe(0);
  }, SLOW);

  it(
    "add_x_to_y adds, remove_x_from_y drops and re-adds, create_y creates, any other name is empty",
    async () => {
      const add = wisent(dir, ["g", "m", "add_summary_to_posts", "summary:text", "views:int"]);
      expect(add.stdout).toMatch(/^ {6}create {2}migrations\/\d{14}_add_summary_to_posts\.ts\n/);
      expect(wisent(dir, ["migrate"]).code).toBe(0);
      expect(await columnsOf(DEV, dir, "posts")).toEqual(
        ["created_at", "id", "summary", "title", "updated_at", "views"].sort(),
      );
      expect(wisent(dir, ["g", "migration", "remove_views_from_posts", "views:int"]).code).toBe(0);
      expect(wisent(dir, ["g", "m", "create_tags", "name"]).code).toBe(0);
      expect(wisent(dir, ["g", "m", "backfill_slugs"]).code).toBe(0);
      expect(wisent(dir, ["migrate"]).stdout.split("\n")).toHaveLength(4);
      expect(await columnsOf(DEV, dir, "posts")).not.toContain("views");
      expect(await columnsOf(DEV, dir, "tags")).toEqual(["created_at", "id", "name", "updated_at"]);
      expect(wisent(dir, ["db", "rollback", "--step", "3"]).code).toBe(0);
      expect(await columnsOf(DEV, dir, "posts")).toContain("views");
      expect(await columnsOf(DEV, dir, "tags")).toEqual([]);
      const destroyed = wisent(dir, ["d", "m", "add_summary_to_posts", "-y"]);
      expect(destroyed.stdout).toMatch(/revert {2}\d{14}_add_summary_to_posts\n/);
      expect(await columnsOf(DEV, dir, "posts")).not.toContain("summary");
      // The generated files type-check with the app.
      const tsc = spawnSync(
        process.execPath,
        [join(REPO, "node_modules/typescript/bin/tsc"), "--noEmit"],
        {
          cwd: dir,
          encoding: "utf8",
        },
      );
      expect(tsc.stdout).toBe("");
    },
    SLOW,
  );

  it.each([
    [["g", "m"], /missing the migration name/],
    [["g", "m", "Bad Name"], /invalid migration name "Bad Name"/],
    [["g", "m", "add_x_to_posts"], /name the columns to add/],
    [["g", "m", "tidy_up", "x:int"], /"tidy_up" does not say which table/],
    [["g", "m", "add_x_to_posts", "x:strng"], /unknown type "strng"/],
    [["d", "m", "nothing_here"], /no migration named nothing_here/],
  ])("%j is a usage error", (args, message) => {
    const r = wisent(dir, args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe.each(["sqlite", "postgres"] as const)("wisent db on %s", (dialect) => {
  let dir: string;
  const name = `wisent_dbcli_${randomBytes(4).toString("hex")}`;
  const url = dialect === "sqlite" ? DEV : PG.replace(/\/[^/]*$/, `/${name}`);
  const run = it.skipIf(!available[dialect]);
  beforeAll(async () => {
    if (!available[dialect]) return;
    dir = await newApp();
    writeFileSync(join(dir, ".env"), `DATABASE_URL=${url}\n`);
    expect(wisent(dir, ["g", "r", "post", "title"]).code).toBe(0);
    writeFileSync(
      join(dir, "db/seeds.ts"),
      [
        'import { db } from "../src/db.js";',
        'import { Post } from "../src/models/post.js";',
        "",
        "export default async function seed(): Promise<void> {",
        '  await Post.create(db.kysely, { title: "Seeded" });',
        "}",
        "",
      ].join("\n"),
    );
  }, SLOW);
  afterAll(() => {
    if (dir) {
      wisent(dir, ["db", "drop"]);
      wisent(dir, ["db", "drop"], { env: { GO_ENV: "test" } });
    }
  });

  run(
    "create, migrate, seed, reset, rollback, drop",
    async () => {
      const masked = url.replace(/:[^:@/]*@/, ":****@");
      expect(wisent(dir, ["db", "create"]).stdout).toBe(`      create  database ${masked}\n`);
      expect(wisent(dir, ["db", "create"]).stdout).toBe(`      exists  database ${masked}\n`);
      expect(wisent(dir, ["migrate"]).code).toBe(0);
      expect(wisent(dir, ["db", "seed"]).stdout).toContain(`seeded ${masked} from db/seeds.ts`);
      const count = async () => {
        const db = await openDatabase(url, { cwd: dir });
        try {
          return (await db.kysely.selectFrom("posts").selectAll().execute()).length;
        } finally {
          await db.close();
        }
      };
      expect(await count()).toBe(1);
      const reset = wisent(dir, ["db", "reset"]);
      expect(reset.stdout).toMatch(
        /remove {2}database .*\n.*create {2}database .*\nmigrated {2}\d{14}_create_posts\n.*seeded/,
      );
      expect(await count()).toBe(1);
      expect(wisent(dir, ["db", "rollback"]).stdout).toMatch(/^reverted {2}\d{14}_create_posts\n$/);
      expect(wisent(dir, ["db", "drop"]).stdout).toBe(`      remove  database ${masked}\n`);
      expect(wisent(dir, ["db", "drop"]).stdout).toContain("(there was none)");
    },
    SLOW,
  );

  run(
    "GO_ENV=test uses the _test database, created and migrated by the app's Vitest setup",
    () => {
      writeFileSync(
        join(dir, "src/models/post.test.ts"),
        [
          'import { describe, expect, it } from "vitest";',
          'import { db } from "../db.js";',
          'import { Post } from "./post.js";',
          "",
          'describe("Post", () => {',
          '  it("saves in the test database", async () => {',
          '    const post = await Post.create(db.kysely, { title: "Hi" });',
          '    expect((await Post.find(db.kysely, post.id)).title).toBe("Hi");',
          `    expect(db.url).toContain(${JSON.stringify(dialect === "sqlite" ? "db/test.sqlite" : `${name}_test`)});`,
          "  });",
          "});",
          "",
        ].join("\n"),
      );
      // No migrate, no db create: the generated global setup does both.
      const r = spawnSync(process.execPath, [VITEST, "run", "src/models"], {
        cwd: dir,
        env: cleanEnv(),
        encoding: "utf8",
      });
      expect(r.stdout + r.stderr).toMatch(/Tests {2}1 passed/);
      expect(r.stdout).toMatch(/migrated {2}\d{14}_create_posts/);
      const status = wisent(dir, ["migrate", "status"], { env: { GO_ENV: "test" } });
      expect(status.stdout).toMatch(/^up {4}\d{14}_create_posts {2}/);
    },
    SLOW,
  );

  run("bad arguments are usage errors", () => {
    for (const [args, message] of [
      [["db"], /which db command\?/],
      [["db", "frob"], /unknown db command "frob"/],
      [["db", "migrate"], /run wisent migrate/],
      [["db", "rollback", "--step", "0"], /--step must be a whole number at least 1/],
      [["db", "create", "--step", "2"], /--step only goes with "rollback"/],
    ] as const) {
      const r = wisent(dir, [...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const prod = wisent(dir, ["db", "drop"], { env: { GO_ENV: "production" } });
    expect(prod.code).toBe(2);
    expect(prod.stderr).toMatch(/refusing to drop the production database/);
  });
});
