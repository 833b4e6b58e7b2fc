/**
 * Slow: owned resources that hold unique values and point at each other, in real web and API apps
 * made by `wisent new --dev` after `wisent g auth`: projects with a name unique per user and a
 * code unique across users (`name:string:uniq code:string:uniq{global}`), tasks that reference a
 * project (`project:references`, with a declared `search` collection route) and steps nested in
 * a project. Each app type-checks, lints clean and passes its generated tests (Bob may name a
 * project as Ada did; Bob's task in Ada's project is a 422 naming the field, in HTML, JSON and
 * XML, on Create and Update), on SQLite and PostgreSQL; the database holds the per-user unique
 * index; `g migration` adds and drops a per-user unique column; `destroy` takes it all back.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constraintViolation } from "../../data/constraint-violation.js";
import { database } from "../../data/database.js";
import { tree } from "./test-support/fixture-app.js";
import {
  expectTypeChecksAndLints,
  inApp,
  newApp,
  SLOW,
  tool,
  wisent,
} from "./test-support/generated-app.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const POSTGRES = "postgres://postgres@127.0.0.1:5432";

let root: string;
const databases: string[] = [];
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-owned-records-"));
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  const admin = database(`${POSTGRES}/test`);
  for (const name of databases)
    await sql.raw(`drop database if exists ${name}`).execute(admin.kysely);
  await admin.close();
});

/** A new PostgreSQL database of this suite (`owned_...`), dropped after it: its URL. */
async function postgresDatabase(): Promise<string> {
  const name = `owned_${process.pid}_${Date.now()}_${databases.length}`;
  const admin = database(`${POSTGRES}/test`);
  await sql.raw(`create database ${name}`).execute(admin.kysely);
  await admin.close();
  databases.push(name);
  return `${POSTGRES}/${name}`;
}

/** The app's own files: no databases, no development secret, no build. */
function sourceTree(dir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree(dir)).filter(
      ([path]) => !/^(db\/.*\.sqlite.*|tmp\/.*|dist\/.*)$/.test(path),
    ),
  );
}

/** `wisent <args>` in the app as from a shell, on the database at `url`: expects success. */
async function cli(app: string, url: string, args: string[]): Promise<string> {
  const result = await inApp(app, BIN, args, { DATABASE_URL: url });
  expect(result.code, result.output).toBe(0);
  return result.output;
}

/** `g auth`, then the three resources: the app's files between the two. */
async function generateResources(app: string): Promise<Record<string, string>> {
  await wisent(app, ["g", "auth"]);
  const afterAuth = sourceTree(app);
  await wisent(app, [
    "g",
    "r",
    "project",
    "name:string:uniq",
    "code:string:uniq{global}",
    "--tests=full",
  ]);
  await wisent(app, [
    "g",
    "r",
    "task",
    "title",
    "project:references",
    "--collection",
    "search:get",
    "--tests=full",
  ]);
  await wisent(app, ["g", "r", "step", "title", "--parent", "project", "--tests=full"]);
  return afterAuth;
}

/** What the generator wrote: per-user unique indexes, and references checked through the owner. */
function expectOwnedDeclarations(app: string): void {
  const read = (path: string) => readFileSync(join(app, path), "utf8");
  expect(read("src/models/project.ts")).toContain(
    'unique: [{ field: "name", scope: "user_id" }, "code"],',
  );
  expect(read("src/models/task.ts")).toContain(
    'references: { project_id: { table: "projects", ownedBy: "user_id" } },',
  );
  expect(read("src/models/step.ts")).toContain(
    'references: { project_id: { table: "projects", ownedBy: "user_id" } },',
  );
  const migration = Object.keys(tree(join(app, "migrations"))).find((f) =>
    f.endsWith("_create_projects.ts"),
  )!;
  const created = read(`migrations/${migration}`);
  expect(created).toContain('t.string("name").unique({ scope: "user_id" });');
  expect(created).toContain('t.string("code").unique();');
}

/** The app migrates its test database and passes every one of its own tests, these among them. */
async function expectPassing(app: string, env: Record<string, string> = {}): Promise<void> {
  const migrate = await inApp(app, BIN, ["migrate"], { GO_ENV: "test", ...env });
  expect(migrate.code, migrate.output).toBe(0);
  const result = await inApp(app, tool.vitest, ["run", "--reporter=verbose"], env);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/failed/);
  for (const test of [
    "Unique per user: Bob may take the name of Ada's project, Ada not twice",
    "References: Bob cannot point a task at Ada's project",
    "Ownership: Create and Update keep the signed-in user as owner",
    "Parent: Bob gets 404 on everything under Ada's project",
  ]) {
    expect(result.output).toContain(test);
  }
}

/**
 * On the app's migrated database at `url`: one user may not name two projects alike, two users
 * may; a code is one across users (the indexes, written by hand around the model's checks).
 */
async function expectIndexes(url: string): Promise<void> {
  const db = database(url);
  try {
    const now = new Date().toISOString();
    const user = (email: string) => ({
      id: crypto.randomUUID(),
      email,
      password_digest: "x",
      session_generation: 0,
      created_at: now,
      updated_at: now,
    });
    const [ada, bob] = [user("ada@example.com"), user("bob@example.com")];
    await db.kysely.insertInto("users").values([ada, bob]).execute();
    const project = (owner: { id: string }, name: string, code: string) =>
      db.kysely
        .insertInto("projects")
        .values({
          id: crypto.randomUUID(),
          user_id: owner.id,
          name,
          code,
          created_at: now,
          updated_at: now,
        })
        .execute();
    await project(ada, "Garden", "G-1");
    await project(bob, "Garden", "G-2");
    const refused = async (write: Promise<unknown>) =>
      constraintViolation(
        await write.then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
    expect(await refused(project(ada, "Garden", "G-3"))).toMatchObject({ kind: "unique" });
    expect(await refused(project(bob, "Shed", "G-1"))).toMatchObject({ kind: "unique" });
    await db.kysely.deleteFrom("projects").execute();
    await db.kysely.deleteFrom("users").execute();
  } finally {
    await db.close();
  }
}

/**
 * `g migration` on the owned projects table: a per-user unique column added and dropped (its
 * index on both columns first), run up and back down; then `destroy` rolls back and removes the
 * three resources, leaving the app as `g auth` left it.
 */
async function expectMigrationsAndDestroy(
  app: string,
  url: string,
  before: Record<string, string>,
): Promise<void> {
  await cli(app, url, ["g", "migration", "add_slug_to_projects", "slug:string:uniq"]);
  await cli(app, url, ["g", "migration", "remove_slug_from_projects", "slug:string:uniq"]);
  const migrations = tree(join(app, "migrations"));
  const source = (suffix: string) =>
    Object.entries(migrations).find(([file]) => file.endsWith(suffix))![1];
  expect(source("_add_slug_to_projects.ts")).toContain(
    't.string("slug").nullable().unique({ scope: "user_id" });',
  );
  expect(source("_add_slug_to_projects.ts")).toContain(
    'await dropIndex(db, "projects", ["user_id", "slug"]);',
  );
  expect(source("_remove_slug_from_projects.ts")).toContain(
    'await dropIndex(db, "projects", ["user_id", "slug"]);',
  );
  await cli(app, url, ["migrate"]);
  await cli(app, url, ["d", "migration", "remove_slug_from_projects", "-y"]);
  await cli(app, url, ["d", "migration", "add_slug_to_projects", "-y"]);
  for (const name of ["step", "task", "project"]) {
    const out = await cli(app, url, ["d", "r", name, "-y"]);
    expect(out).toMatch(new RegExp(`revert\\s+\\d{14}_create_${name}s`));
  }
  expect(sourceTree(app)).toEqual(before);
  const db = database(url);
  try {
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    expect(tables).toContain("users");
    expect(tables).not.toContain("projects");
  } finally {
    await db.close();
  }
}

describe("owned resources with unique values and references, in a web app", {
  timeout: SLOW,
}, () => {
  let app: string;
  let afterAuth: Record<string, string>;
  beforeAll(async () => {
    app = await newApp(root, "planner");
    afterAuth = await generateResources(app);
  }, SLOW);

  it("scopes unique values and references to the owner", () => {
    expectOwnedDeclarations(app);
  });

  it("type-checks, lints clean and passes its tests on SQLite and PostgreSQL", async () => {
    await expectTypeChecksAndLints(app);
    await expectPassing(app);
    await expectPassing(app, { DATABASE_URL: await postgresDatabase() });
  });

  it("holds the per-user index in SQLite, and g migration and destroy handle it", async () => {
    const url = `sqlite:${join(app, "db/development.sqlite")}`;
    await cli(app, url, ["migrate"]);
    await expectIndexes(url);
    await expectMigrationsAndDestroy(app, url, afterAuth);
  });
});

describe("owned resources with unique values and references, in an API app", {
  timeout: SLOW,
}, () => {
  let app: string;
  let afterAuth: Record<string, string>;
  beforeAll(async () => {
    app = await newApp(root, "tracker", ["--api"]);
    afterAuth = await generateResources(app);
  }, SLOW);

  it("scopes unique values and references to the owner", () => {
    expectOwnedDeclarations(app);
  });

  it("type-checks, lints clean and passes its tests on SQLite and PostgreSQL", async () => {
    await expectTypeChecksAndLints(app);
    await expectPassing(app);
    await expectPassing(app, { DATABASE_URL: await postgresDatabase() });
  });

  it("holds the per-user index in PostgreSQL, and g migration and destroy handle it", async () => {
    const url = await postgresDatabase();
    await cli(app, url, ["migrate"]);
    await expectIndexes(url);
    await expectMigrationsAndDestroy(app, url, afterAuth);
  });
});
