/**
 * Slow: resources after `wisent generate authentication`, in real web and API apps made by
 * `wisent new --dev`. `g r note title` makes a resource owned by the signed-in user (a `user_id`
 * column, `ownedBy: "user_id"`), `--shared` one for every signed-in user, `--public` one for
 * anyone. Each app type-checks, lints clean and passes its own generated tests (which sign in
 * with wisent/testing's signIn, and check users A and B); then, built and started in production
 * (with a policy added by hand), users A and B drive all five operations over HTTP, on top-level
 * records and on records nested in an owned parent (remarks of a note) and in a public one
 * (comments of a post).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../testing/test-client.js";
import { cleanEnv } from "../test-support/clean-env.js";
import {
  expectTypeChecksAndLints,
  inApp,
  migrateAndTest,
  newApp,
  SLOW,
  wisent,
} from "./test-support/generated-app.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const SECRET = "a-production-secret-of-at-least-32-characters";
const PASSWORD = "correct horse battery staple";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-ownership-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Generates the three kinds of resource (and an owned one nested in the owned one). */
async function generateResources(app: string): Promise<void> {
  await wisent(app, ["g", "auth"]);
  await wisent(app, ["g", "r", "note", "title", "--tests=full"]);
  await wisent(app, ["g", "r", "memo", "body", "--shared", "--tests=full"]);
  await wisent(app, ["g", "r", "post", "title", "--public", "--tests=full"]);
  await wisent(app, ["g", "r", "remark", "text", "--parent", "note", "--tests=full"]);
  await wisent(app, ["g", "r", "comment", "body", "--parent", "post", "--tests=full"]);
}

/** What the generator wrote for each kind. */
function expectDeclarations(app: string): void {
  const source = readFileSync(join(app, "src/app.ts"), "utf8");
  expect(source).toContain(
    'export const notes = app.resource("/notes", new NotesResource(), { ownedBy: "user_id" });',
  );
  expect(source).toContain(
    'export const memos = app.resource("/memos", new MemosResource(), { authenticate: true });',
  );
  expect(source).toContain('export const posts = app.resource("/posts", new PostsResource());');
  const migration = readFileSync(join(app, "migrations", migrationOf(app, "notes")), "utf8");
  expect(migration).toContain('t.references("user_id", "users");');
  expect(readFileSync(join(app, "migrations", migrationOf(app, "memos")), "utf8")).not.toContain(
    "user_id",
  );
  const tests = readFileSync(join(app, "src/actions/notes.test.ts"), "utf8");
  expect(tests).toContain("await signIn(client, ada);");
  expect(tests).toContain("Ownership: Bob gets 404 on Ada's note");
}

function migrationOf(app: string, table: string): string {
  const listed = readFileSync(join(app, ".wisent/generated.json"), "utf8");
  const match = new RegExp(`"(\\d{14}_create_${table}\\.ts)"`).exec(listed);
  if (!match) throw new Error(`no migration of ${table}`);
  return match[1]!;
}

/**
 * A policy added by hand to the generated owned resource: a note whose title starts with
 * "[locked]" cannot be destroyed, even by its owner (a rule beyond ownership).
 */
function addPolicy(app: string): void {
  writeFileSync(
    join(app, "src/policies.ts"),
    [
      'import { definePolicy } from "wisent";',
      'import type { Note } from "./models/note.js";',
      "",
      "export const notePolicy = definePolicy({",
      '  destroy: (_user, note: Note) => !note.title.startsWith("[locked]"),',
      "});",
      "",
    ].join("\n"),
  );
  const file = join(app, "src/app.ts");
  const source = readFileSync(file, "utf8")
    .replace("// wisent:imports", 'import { notePolicy } from "./policies.js";\n// wisent:imports')
    .replace('{ ownedBy: "user_id" }', '{ ownedBy: "user_id", policy: notePolicy }');
  writeFileSync(file, source);
}

/** The policy's 403 for the owner, and the 404 (not 403) for another user. */
async function expectPolicy(a: TestClient, b: TestClient) {
  const locked = (await (
    await a.post("/notes", { json: { title: "[locked] keep" } })
  ).json()) as Row;
  const refused = await a.delete(`/notes/${locked.id}`);
  expect(refused.status).toBe(403);
  expect(await refused.text()).toContain("not allowed to destroy this record");
  expect((await b.delete(`/notes/${locked.id}`)).status).toBe(404);
  expect((await a.get(`/notes/${locked.id}`)).status).toBe(200);
}

/** `npx wisent build`, then `node dist/server.js` in production on a fresh SQLite database. */
async function startProduction(app: string): Promise<{ url: string; child: ChildProcess }> {
  addPolicy(app);
  const built = await inApp(app, BIN, ["build"]);
  expect(built.code, built.output).toBe(0);
  const data = mkdtempSync(join(root, "data-"));
  const env = {
    GO_ENV: "production",
    NODE_ENV: "production",
    SESSION_SECRET: SECRET,
    DATABASE_URL: `sqlite:${join(data, "production.sqlite")}`,
    // The web app's reset mail needs one to start; nothing here sends mail.
    SMTP_URL: "smtp://127.0.0.1:25",
  };
  const migrated = await inApp(app, BIN, ["migrate"], env);
  expect(migrated.code, migrated.output).toBe(0);
  const child = spawn(process.execPath, ["dist/server.js"], {
    cwd: app,
    // This test is the TLS proxy (X-Forwarded-Proto: https): a trusted one.
    env: cleanEnv({ ...env, PORT: "0", TRUSTED_PROXIES: "127.0.0.1, ::1" }),
  });
  let printed = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(printed);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited ${code}:\n${printed}`)));
  });
  return { url, child };
}

/** A client of the running server, as a browser behind TLS (the app forces HTTPS in production). */
function client(url: string, name: string, accept = "application/json"): TestClient {
  return testClient(
    { name, fetch: (request) => fetch(request, { redirect: "manual" }) },
    { baseUrl: url, sessionSecret: SECRET, headers: { accept, "x-forwarded-proto": "https" } },
  );
}

interface Row {
  id: string;
  user_id?: string;
  title?: string;
}

/**
 * Users A and B against an owned resource: each lists only their own, B gets 404 on A's record
 * for show, update and destroy, and `user_id` in a body changes no owner; B sees A's shared memo.
 */
async function expectOwnership(a: TestClient, b: TestClient, aId: string, bId: string) {
  const created = await a.post("/notes", { json: { title: "A's note", user_id: bId } });
  expect(created.status).toBe(201);
  const note = (await created.json()) as Row;
  expect(note.user_id).toBe(aId);
  const bCreated = await b.post("/notes", { json: { title: "B's note" } });
  expect(bCreated.status).toBe(201);
  const bNote = (await bCreated.json()) as Row;

  const aList = (await (await a.get("/notes")).json()) as Row[];
  expect(aList.map((r) => r.id)).toEqual([note.id]);
  const bList = (await (await b.get("/notes")).json()) as Row[];
  expect(bList.map((r) => r.id)).toEqual([bNote.id]);

  const path = `/notes/${note.id}`;
  expect((await b.get(path)).status).toBe(404);
  expect((await b.put(path, { json: { title: "B was here" } })).status).toBe(404);
  expect((await b.delete(path)).status).toBe(404);
  const moved = await a.put(path, { json: { title: "still A's", user_id: bId } });
  expect(moved.status).toBe(200);
  expect(await moved.json()).toMatchObject({ title: "still A's", user_id: aId });
  expect(await (await a.get(path)).json()).toMatchObject({ title: "still A's", user_id: aId });
  expect((await a.delete(path)).status).toBe(200);
  expect((await a.get(path)).status).toBe(404);

  // --shared: signed-in users see each other's; --public: anyone, signed in or not.
  const memo = (await (await a.post("/memos", { json: { body: "for all" } })).json()) as Row;
  expect((await b.get(`/memos/${memo.id}`)).status).toBe(200);
}

/**
 * Records nested in a parent: under A's owned note, B gets 404 on every operation (the parent is
 * found among B's own notes first, as Rails' `current_user.notes.find`), and makes nothing there;
 * under a public post, A and B each comment, and each sees only their own comments.
 */
async function expectNestedOwnership(a: TestClient, b: TestClient, web: boolean) {
  const note = (await (await a.post("/notes", { json: { title: "A's parent" } })).json()) as Row;
  const remarks = `/notes/${note.id}/remarks`;
  const made = await a.post(remarks, { json: { text: "A's remark" } });
  expect(made.status).toBe(201);
  const remark = `${remarks}/${((await made.json()) as Row).id}`;
  expect((await b.get(remarks)).status).toBe(404);
  expect((await b.post(remarks, { json: { text: "B under A's note" } })).status).toBe(404);
  expect((await b.get(remark)).status).toBe(404);
  expect((await b.put(remark, { json: { text: "B was here" } })).status).toBe(404);
  expect((await b.delete(remark)).status).toBe(404);
  if (web) {
    const html = { headers: { accept: "text/html" } };
    expect((await b.get(remarks, html)).status).toBe(404);
    expect((await b.get(`${remarks}/new`, html)).status).toBe(404);
    expect((await b.get(`${remark}/edit`, html)).status).toBe(404);
    expect((await a.get(`${remarks}/new`, html)).status).toBe(200);
  }
  const listed = (await (await a.get(remarks)).json()) as Row[];
  expect(listed.length).toBe(1);
  expect(await (await a.get(remark)).json()).toMatchObject({ text: "A's remark" });

  const post = (await (await a.post("/posts", { json: { title: "for all" } })).json()) as Row;
  const comments = `/posts/${post.id}/comments`;
  const aComment = (await (await a.post(comments, { json: { body: "A's" } })).json()) as Row;
  const bMade = await b.post(comments, { json: { body: "B's" } });
  expect(bMade.status).toBe(201);
  const bComment = (await bMade.json()) as Row;
  const aList = (await (await a.get(comments)).json()) as Row[];
  expect(aList.map((r) => r.id)).toEqual([aComment.id]);
  const bList = (await (await b.get(comments)).json()) as Row[];
  expect(bList.map((r) => r.id)).toEqual([bComment.id]);
  expect((await b.get(`${comments}/${aComment.id}`)).status).toBe(404);
}

async function expectSignedOutRefused(guest: TestClient) {
  expect((await guest.get("/notes")).status).toBe(401);
  expect((await guest.post("/notes", { json: { title: "x" } })).status).toBe(401);
  expect((await guest.get("/memos")).status).toBe(401);
  const post = await guest.post("/posts", { json: { title: "anyone" } });
  expect(post.status).toBe(201);
  expect((await guest.get("/posts")).status).toBe(200);
}

/** The app type-checks, lints clean, migrates, and every one of its own tests passes. */
async function expectCleanAndPassing(app: string): Promise<void> {
  await expectTypeChecksAndLints(app);
  const result = await migrateAndTest(app);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toMatch(/failed/);
  expect(result.output).toMatch(/Tests\s+\d+ passed/);
}

describe("resources after wisent g auth, in a web app", { timeout: SLOW }, () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp(root, "notebook");
    await generateResources(app);
  }, SLOW);

  it("declares the owned, shared and public resources, with the owner column", () => {
    expectDeclarations(app);
  });

  it("type-checks, lints clean and passes its own tests, signed in as users A and B", async () => {
    await expectCleanAndPassing(app);
  });

  it("keeps users A and B apart over HTTP in production", async () => {
    const { url, child } = await startProduction(app);
    try {
      const ids: string[] = [];
      const clients: TestClient[] = [];
      for (const name of ["a", "b"]) {
        const browser = client(url, "notebook", "text/html");
        const signedUp = await browser.post("/registration", {
          form: {
            email: `${name}@example.com`,
            password: PASSWORD,
            password_confirmation: PASSWORD,
          },
        });
        expect(signedUp.status, await signedUp.clone().text()).toBe(303);
        const session = client(url, "notebook");
        for (const cookie of signedUp.headers.getSetCookie()) session.cookies.storeHeader(cookie);
        const me = await session.get("/registration", { headers: { accept: "text/html" } });
        expect(me.status).toBe(200);
        const made = (await (
          await session.post("/notes", { json: { title: "probe" } })
        ).json()) as Row;
        ids.push(made.user_id!);
        expect((await session.delete(`/notes/${made.id}`)).status).toBe(200);
        clients.push(session);
      }
      await expectOwnership(clients[0]!, clients[1]!, ids[0]!, ids[1]!);
      await expectNestedOwnership(clients[0]!, clients[1]!, true);
      await expectPolicy(clients[0]!, clients[1]!);
      const guest = client(url, "notebook");
      await expectSignedOutRefused(guest);
      const page = await client(url, "notebook", "text/html").get("/notes");
      expect(page.status).toBe(303);
      expect(page.headers.get("location")).toBe("/session/new");
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("resources after wisent g auth, in an API app", { timeout: SLOW }, () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp(root, "jotter", ["--api"]);
    await generateResources(app);
  }, SLOW);

  it("declares the owned, shared and public resources, with the owner column", () => {
    expectDeclarations(app);
  });

  it("type-checks, lints clean and passes its own tests, signed in with tokens", async () => {
    await expectCleanAndPassing(app);
  });

  it("keeps users A and B apart over HTTP in production", async () => {
    const { url, child } = await startProduction(app);
    try {
      const ids: string[] = [];
      const clients: TestClient[] = [];
      for (const name of ["a", "b"]) {
        const session = client(url, "jotter");
        const email = `${name}@example.com`;
        const user = await session.post("/user", { json: { email, password: PASSWORD } });
        expect(user.status, await user.clone().text()).toBe(201);
        ids.push(((await user.json()) as Row).id);
        const token = await session.post("/tokens", { json: { email, password: PASSWORD } });
        expect(token.status).toBe(201);
        session.headers.authorization = `Bearer ${((await token.json()) as { token: string }).token}`;
        clients.push(session);
      }
      await expectOwnership(clients[0]!, clients[1]!, ids[0]!, ids[1]!);
      await expectNestedOwnership(clients[0]!, clients[1]!, false);
      await expectPolicy(clients[0]!, clients[1]!);
      await expectSignedOutRefused(client(url, "jotter"));
    } finally {
      child.kill("SIGTERM");
    }
  });
});
