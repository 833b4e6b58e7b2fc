/**
 * Slow: `wisent destroy resource` through the built CLI (dist/) in a real app made by `wisent new
 * --dev` (node_modules linked to the repository's), after the edits a user makes: the books
 * registration protected with `{ authenticate: [...] }` (one line, then reformatted by Biome) and
 * a later migration indexing the books table. The app must still type-check, list its routes,
 * build a fresh test database and show no orphan migration; answering "n" changes nothing.
 */

import { spawnSync } from "node:child_process";
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../data/database.js";
import { runCli } from "../cli.js";
import { listFiles } from "../generate/test-support/fixture-app.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const SLOW = 600_000;

function run(dir: string, command: string, args: string[], input = "", env = {}) {
  const r = spawnSync(process.execPath, [command, ...args], {
    cwd: dir,
    env: cleanEnv(env),
    input,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr };
}
const wisent = (dir: string, args: string[], input = "", env = {}) =>
  run(dir, BIN, args, input, env);
const tsc = (dir: string) => run(dir, join(REPO, "node_modules/typescript/bin/tsc"), ["--noEmit"]);
const biome = (dir: string, args: string[]) =>
  run(dir, join(REPO, "node_modules/@biomejs/biome/bin/biome"), args);

/** `wisent migrate status`, asked again when a run printed nothing. */
function statusOf(dir: string, env = {}): string {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { stdout } = wisent(dir, ["migrate", "status"], "", env);
    if (stdout !== "") return stdout;
  }
  return "";
}

/** The tables of a SQLite database. */
async function tablesOf(dir: string): Promise<string[]> {
  const db = await openDatabase("sqlite:db/development.sqlite", { cwd: dir });
  try {
    return (await db.kysely.introspection.getTables()).map((t) => t.name);
  } finally {
    await db.close();
  }
}

const roots: string[] = [];
afterAll(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

async function newApp(name: string): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "wisent-destroy-app-"));
  roots.push(root);
  const { io, stderr } = memoryIO({ cwd: root });
  expect(await runCli(["new", name, "--dev", "--skip-install"], io)).toBe(0);
  expect(stderr()).toBe("");
  const dir = join(root, name);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** Every file of the app (db/ and the logs left out: the database is not a file a user edits). */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(dir)
      .filter((f) => !f.startsWith("db/") && !f.startsWith("log/") && !f.startsWith("tmp/"))
      .map((f) => [f, readFileSync(join(dir, f), "utf8")]),
  );
}

const BOOKS = 'export const authorBooks = authors.resource("/books", new BooksResource());';
const MAGAZINES = 'export const magazines = app.resource("/magazines", new MagazinesResource());';
/** The same registration, protected as docs/guides/authentication-and-ownership.md shows (on one line). */
const protect = (line: string) =>
  line.replace("Resource());", 'Resource(), { authenticate: ["create", "update", "destroy"] });');

describe("destroy after the user protected registrations and indexed a table", () => {
  it(
    "keeps the app compiling, its routes listing, a fresh test database building, no orphans",
    async () => {
      const dir = await newApp("library");
      expect(wisent(dir, ["g", "r", "author", "name"]).code).toBe(0);
      expect(wisent(dir, ["g", "r", "book", "title", "isbn", "--parent", "author"]).code).toBe(0);
      expect(wisent(dir, ["g", "r", "magazine", "title"]).code).toBe(0);
      const appFile = join(dir, "src/app.ts");
      const generated = readFileSync(appFile, "utf8");
      expect(generated).toContain(BOOKS);
      expect(generated).toContain(MAGAZINES);
      // Books: protected, then reformatted by Biome over several lines; magazines: one line.
      writeFileSync(appFile, generated.replace(BOOKS, protect(BOOKS)));
      expect(biome(dir, ["format", "--write", "src/app.ts"]).code).toBe(0);
      const source = readFileSync(appFile, "utf8");
      expect(source).toContain(
        'export const authorBooks = authors.resource("/books", new BooksResource(), {\n',
      );
      writeFileSync(appFile, source.replace(MAGAZINES, protect(MAGAZINES)));
      expect(readFileSync(appFile, "utf8")).toContain(protect(MAGAZINES));

      expect(wisent(dir, ["migrate"]).code).toBe(0);
      const index = wisent(dir, ["g", "migration", "index_books_on_isbn"]);
      expect(index.code).toBe(0);
      const indexFile = /migrations\/(\d{14}_index_books_on_isbn)\.ts/.exec(index.stdout)![1]!;
      const indexPath = join(dir, "migrations", `${indexFile}.ts`);
      writeFileSync(
        indexPath,
        readFileSync(indexPath, "utf8")
          .replace(
            'import type { Queryable } from "wisent/db";',
            'import { addIndex, type Queryable } from "wisent/db";',
          )
          .replace(/\/\/ e\.g\. .*\n/, 'await addIndex(db, "books", "isbn");\n'),
      );
      expect(wisent(dir, ["migrate"]).stdout).toContain(`migrated  ${indexFile}`);
      expect(tsc(dir).stdout).toBe("");

      // "n" to every question: no file changes, the manifest included.
      const before = snapshot(dir);
      const declined = wisent(dir, ["d", "r", "book"], "n\n".repeat(30));
      expect(declined.code).toBe(0);
      expect(declined.stdout).not.toMatch(/^ +(remove|update|revert|create) /m);
      expect(snapshot(dir)).toEqual(before);

      const books = wisent(dir, ["d", "r", "book", "-y"]);
      expect(books.code).toBe(0);
      const create = readdirSync(join(dir, "migrations"))
        .find((f) => f.endsWith("_create_books.ts"))!
        .replace(/\.ts$/, "");
      expect(books.stdout).toContain(
        `skip  migrations/${create}.ts (kept: ${indexFile}, which comes after it, uses the books table)`,
      );
      expect(books.stdout).not.toContain("revert");
      expect(books.stdout).toMatch(/create {2}migrations\/\d{14}_drop_books\.ts/);
      // Magazines ran before books' index: not the last one run, so kept too.
      const magazines = wisent(dir, ["d", "r", "magazine", "-y"]);
      expect(magazines.code).toBe(0);
      expect(magazines.stdout).toMatch(/skip {2}migrations\/\d{14}_create_magazines\.ts \(kept: /);
      expect(readFileSync(appFile, "utf8")).not.toMatch(/Books|Magazines/);

      expect(tsc(dir).stdout).toBe("");
      const routes = wisent(dir, ["routes"]);
      expect(routes.code).toBe(0);
      expect(routes.stdout).toContain("AuthorsResource.List");
      expect(routes.stdout).not.toMatch(/Books|Magazines/);
      // A fresh test database builds from the migrations (the kept create_books, the index, the drop).
      const prepared = wisent(dir, ["db", "prepare"], "", { GO_ENV: "test" });
      expect(prepared.out).not.toContain("error");
      const fresh = statusOf(dir, { GO_ENV: "test" });
      expect(fresh).toMatch(/^up {4}\d{14}_index_books_on_isbn\b/m);
      expect(fresh).toMatch(/^up {4}\d{14}_drop_books\b/m);
      expect(fresh).not.toMatch(/^down |NO FILE/m);
      // (Checked through the status: the SQLite driver may abort at exit after the work is done,
      // `Assertion failed: (env) != nullptr` in a Statement's destructor, with no exit code.)
      for (let attempt = 0; attempt < 3 && /^down /m.test(statusOf(dir)); attempt++) {
        wisent(dir, ["migrate"]);
      }
      const status = statusOf(dir);
      expect(status).toMatch(/^up {4}\d{14}_drop_books\b/m);
      expect(status).not.toContain("NO FILE");
      expect(status).not.toMatch(/^down /m);
      // The drop migration's down makes the table again.
      for (let attempt = 0; attempt < 3 && !/^down /m.test(statusOf(dir)); attempt++) {
        wisent(dir, ["migrate", "down"]);
      }
      expect(statusOf(dir)).toMatch(/^down {2}\d{14}_drop_magazines\b/m);
      expect(await tablesOf(dir)).toContain("magazines");

      // generate and destroy agree that the resource is gone.
      expect(wisent(dir, ["d", "r", "book", "-y"]).stderr).toContain("nothing to destroy");
      expect(
        wisent(dir, ["g", "r", "book", "title", "--parent", "author", "--skip-migration"]).code,
      ).toBe(0);
    },
    SLOW,
  );
});
