/**
 * Slow: `wisent g r --tests=full` in a real web app made by `wisent new --dev`: a resource with
 * every attribute type, a nested one and one with a reference. The app must type-check (names
 * typed where they are written: route names, form fields, path parameters), lint clean, and pass
 * its own generated tests on SQLite, PostgreSQL and MariaDB (the local services), which
 * round-trips every type through each database. (The API app is full-tests-api.test.ts, a file
 * of its own so the two run in parallel.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EVERY_TYPE,
  expectTypeChecksAndLints,
  migrateAndTest,
  newApp,
  SLOW,
  wisent,
} from "./test-support/generated-app.js";

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
    // Names are typed where they are written (route names, form fields, a nested resource's path
    // parameters): each @ts-expect-error fails tsc if typing regresses.
    writeFileSync(
      join(app, "src/typed-names.ts"),
      [
        'import type { Context } from "hono";',
        'import { usePaths } from "wisent/jsx";',
        'import type { CommentsResource } from "./actions/comments.js";',
        'import type { FormValues } from "./templates/posts/_form.js";',
        "",
        'export function params(c: Parameters<CommentsResource["show"]>[0]): string {',
        "  // @ts-expect-error a misspelled path parameter",
        '  c.req.param("postid");',
        '  return c.req.param("post_id") + c.req.param("comment_id");',
        "}",
        "",
        "export function redirects(c: Context) {",
        "  // @ts-expect-error a misspelled route name",
        '  c.redirectTo(303, "postPth", { post_id: "x" });',
        '  return c.redirectTo(303, "postPath", { post_id: "x" });',
        "}",
        "",
        "export function respondRedirects(c: Context) {",
        "  // @ts-expect-error a misspelled route name in c.respond's redirect",
        '  c.respond(201, { redirect: ["postPth", { post_id: "x" }], json: {} });',
        '  return c.respond(201, { redirect: "postsPath", flash: { success: "ok" } });',
        "}",
        "",
        "export function links(): string {",
        "  const paths = usePaths();",
        "  // @ts-expect-error a misspelled path helper",
        "  paths.postPth();",
        "  // @ts-expect-error a path helper without the parameter its path needs",
        "  paths.postPath();",
        '  const post = paths.postPath({ post_id: "x" });',
        '  return post + paths.postCommentsPath({ post_id: "x" }) + paths.rootPath();',
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
    // The JSON API through the typed client, nested resources by their route name's stem.
    expect(posts).toContain('createClient<typeof import("../app.js")>({ fetch: app.fetch })');
    expect(posts).toContain("await api.posts.update(member(created.id), change)");
    const comments = readFileSync(join(app, "src/actions/comments.test.ts"), "utf8");
    expect(comments).toContain("await api.postComments.list({ post_id: post.id })");
  });

  it("type-checks and lints clean", async () => {
    await expectTypeChecksAndLints(app);
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
