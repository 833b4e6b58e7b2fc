/**
 * Slow: `wisent g r --tests=full` in real apps made by `wisent new --dev`. A web app gets a
 * resource with every attribute type, a nested one and one with a reference; an API app asks
 * for full tests through its package.json. Each app must type-check, lint clean, and pass its own
 * generated tests on SQLite, and the web app on PostgreSQL and MariaDB too (the local services),
 * which round-trips every type through each database. The test databases are migrated here (by
 * `GO_ENV=test wisent migrate`), as the generated tests expect.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";

const run = promisify(execFile);
const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const SLOW = 300_000;
const tool = {
  tsc: join(REPO, "node_modules/typescript/bin/tsc"),
  biome: join(REPO, "node_modules/@biomejs/biome/bin/biome"),
  vitest: join(REPO, "node_modules/vitest/vitest.mjs"),
};

/** Every attribute type, once. */
const EVERY_TYPE = [
  "title",
  "body:text",
  "summary:nulls.Text",
  "nick:nulls.String",
  "views:int",
  "rank:nulls.Int",
  "big:bigint",
  "active:bool",
  "score:float",
  "weight:nulls.Float",
  "price:decimal",
  "cost:decimal{8.3}",
  "opens:time",
  "published_at:datetime",
  "seen_at:timestamp",
  "checked_at:nulls.Time",
  "day:date",
  "ref:uuid",
  "maybe:nulls.UUID",
  "meta:json",
];

async function inApp(dir: string, file: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], {
      cwd: dir,
      env: cleanEnv(env),
      maxBuffer: 10 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

async function wisent(dir: string, args: string[]): Promise<void> {
  const { io, stdout, stderr } = memoryIO({ cwd: dir });
  const code = await runCli(args, io);
  expect(code, stdout() + stderr()).toBe(0);
}

async function newApp(root: string, name: string, flags: string[] = []): Promise<string> {
  await wisent(root, ["new", name, "--dev", "--skip-install", ...flags]);
  const dir = join(root, name);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** Migrates the app's test database at `url` (SQLite by default), then runs the app's tests. */
async function migrateAndTest(dir: string, env: Record<string, string> = {}) {
  const migrate = await inApp(dir, BIN, ["migrate"], { GO_ENV: "test", ...env });
  expect(migrate.code, migrate.output).toBe(0);
  return inApp(dir, tool.vitest, ["run"], env);
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-full-tests-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("wisent g r --tests=full in a web app", { timeout: SLOW }, () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp(root, "blog");
    await wisent(app, ["g", "r", "post", ...EVERY_TYPE, "--tests=full"]);
    await wisent(app, ["g", "r", "comment", "body:text", "--parent", "post", "--tests=full"]);
    await wisent(app, ["g", "r", "tag", "name", "post:references", "--tests=full"]);
    // Names are typed where they are written: each @ts-expect-error fails tsc if typing regresses.
    writeFileSync(
      join(app, "src/typed-names.ts"),
      [
        'import type { Context } from "hono";',
        'import type { FormValues } from "./templates/posts/_form.js";',
        "",
        "export function redirects(c: Context) {",
        "  // @ts-expect-error a misspelled route name",
        '  c.redirectTo(303, "postPth", { post_id: "x" });',
        '  return c.redirectTo(303, "postPath", { post_id: "x" });',
        "}",
        "",
        "// @ts-expect-error a misspelled form field",
        'export const misspelled: FormValues = { titel: "x" };',
        'export const spelled: FormValues = { title: "x" };',
        "",
      ].join("\n"),
    );
  }, SLOW);

  it("writes tests with no failing stubs, and the type table's values", () => {
    const posts = readFileSync(join(app, "src/actions/posts.test.ts"), "utf8");
    expect(posts).not.toContain("Not Implemented!");
    expect(posts).toContain('opens: "09:30:00"');
    expect(posts).toContain("big: 9007199254740000");
    expect(readFileSync(join(app, "src/actions/tags.test.ts"), "utf8")).toContain(
      "post_id: post.id",
    );
  });

  it("type-checks and lints clean", async () => {
    const tsc = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(tsc.output).toBe("");
    const biome = await inApp(app, tool.biome, ["check", "."]);
    expect(biome.code, biome.output).toBe(0);
  });

  it("passes its generated tests on SQLite", async () => {
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+32 passed/);
  });

  it.each([
    ["PostgreSQL", "postgres://postgres@127.0.0.1:5432"],
    ["MariaDB", "mysql://root@127.0.0.1:3306"],
  ])("passes its generated tests on %s, every type round-tripping", async (_, server) => {
    const name = `wisent_full_${process.pid}_${Date.now()}`;
    const admin = await import("../../data/database.js");
    const db = admin.database(`${server}/test`);
    const { sql } = await import("kysely");
    await sql.raw(`create database ${name}`).execute(db.kysely);
    try {
      const result = await migrateAndTest(app, { DATABASE_URL: `${server}/${name}` });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/Tests\s+32 passed/);
    } finally {
      await sql.raw(`drop database ${name}`).execute(db.kysely);
      await db.close();
    }
  });
});

describe('"wisent": { "tests": "full" } in an API app\'s package.json', { timeout: SLOW }, () => {
  it("generates passing JSON and XML tests by default, nested too", async () => {
    const app = await newApp(root, "inventory", ["--api"]);
    const pkgFile = join(app, "package.json");
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
    writeFileSync(pkgFile, JSON.stringify({ ...pkg, wisent: { tests: "full" } }, null, 2));
    await wisent(app, ["g", "r", "widget", "title", "count:int", "price:decimal{10,2}"]);
    await wisent(app, ["g", "r", "part", "label", "due:date", "--parent", "widget"]);
    expect(readFileSync(join(app, "src/actions/parts.test.ts"), "utf8")).not.toContain(
      "Not Implemented!",
    );
    const tsc = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(tsc.output).toBe("");
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+\d+ passed/);
    expect(result.output).not.toMatch(/failed/);
  });
});
