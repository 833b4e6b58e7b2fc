import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import type { AppCore } from "../app/app-core.js";
import { createTable } from "../data/create-table.js";
import { type Database, openDatabase } from "../data/database.js";
import { defineModel, type RecordOf } from "../data/model.js";
import "../http/bind.js";
import { session } from "../middleware/session/index.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { Resource } from "../resources/resource.js";
import { signIn } from "../testing/sign-in.js";
import { testClient } from "../testing/test-client.js";
import { authentication } from "./authentication.js";
import { authorize, definePolicy } from "./policy.js";

// An app as `wisent g auth` and `g r note title` make it, in-process on SQLite: users, notes with
// an owner column, and a resource declared with `ownedBy` and one with a policy.
const SECRET = "a-test-secret-of-at-least-32-characters!";
const ADA = { id: "0190f5a2-7b1c-7cde-8f00-00000000000a", admin: false };
const BOB = { id: "0190f5a2-7b1c-7cde-8f00-00000000000b", admin: false };
const ROOT = { id: "0190f5a2-7b1c-7cde-8f00-00000000000c", admin: true };
const USERS = new Map([ADA, BOB, ROOT].map((u) => [u.id, u]));

const Note = defineModel({
  table: "notes",
  schema: z.object({
    user_id: z.uuid(),
    title: z.string().trim().min(1),
    locked: z.boolean().default(false),
  }),
});
type Note = RecordOf<typeof Note>;

/** The generated handlers of an owned resource: only List names the scope. */
class NotesResource extends Resource<"note_id"> {
  override readonly model = Note;
  override async list(c: Context) {
    const page = await Note.paginate(await c.tx(), c.req.query(), c.ownerScope());
    return c.json(page.rows);
  }
  override async show(c: Context) {
    return c.json(await Note.find(await c.tx(), c.req.param("note_id")!));
  }
  override async create(c: Context) {
    const result = Note.validate(await c.bind());
    if (!result.ok) return c.json(result.errors, 422);
    return c.json(await Note.create(await c.tx(), result.data), 201);
  }
  override async update(c: Context) {
    const input = await c.bind();
    const tx = await c.tx();
    const note = await Note.find(tx, c.req.param("note_id")!);
    return c.json(await Note.update(tx, note, input));
  }
  override async destroy(c: Context) {
    const tx = await c.tx();
    return c.json(await Note.destroy(tx, await Note.find(tx, c.req.param("note_id")!)));
  }
  async publish(c: Context) {
    const note = await Note.find(await c.tx(), c.req.param("note_id")!);
    await authorize(c, "publish", note);
    return c.json({ published: note.id });
  }
}

/** An owned resource whose List forgot the scope. */
class LeakyNotesResource extends NotesResource {
  override async list(c: Context) {
    return c.json((await Note.paginate(await c.tx(), c.req.query())).rows);
  }
}

/** Declared collection routes of an owned resource: one scoped, one that forgot the scope. */
class SearchableNotesResource extends NotesResource {
  async search(c: Context) {
    const found = await Note.query(await c.tx(), c.ownerScope())
      .where("title", "=", c.req.query("title") ?? "")
      .execute();
    return c.json(found);
  }
  async everything(c: Context) {
    const found = await Note.query(await c.tx())
      .where("title", "=", c.req.query("title") ?? "")
      .execute();
    return c.json(found);
  }
}

const notePolicy = definePolicy({
  update: (user, note: Note) => !note.locked || (user as typeof ROOT).admin,
  destroy: (user, _note: Note) => (user as typeof ROOT).admin,
  publish: (user, note: Note) => note.user_id === user.id,
});

let db: Database;
beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
  await createTable(db.kysely, "users", (t) => {
    t.uuid("id").primary();
  });
  await createTable(db.kysely, "notes", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.string("title");
    t.boolean("locked");
    t.timestamps();
  });
  for (const user of USERS.values())
    await db.kysely.insertInto("users").values({ id: user.id }).execute();
});
afterAll(() => db.close());

function notesApp() {
  const app = new App({ name: "notes" });
  app.use(session({ secret: SECRET }));
  app.use(transaction(db));
  app.use(authentication({ load: (_c, id) => USERS.get(id) }));
  app.resource("/notes", new NotesResource(), { ownedBy: "user_id" });
  app.resource("/leaky", new LeakyNotesResource(), { ownedBy: "user_id", only: ["list"] });
  app.resource("/searchable", new SearchableNotesResource(), {
    ownedBy: "user_id",
    only: ["create"],
    collection: { search: "get", everything: "get" },
  });
  app.resource("/shared", new NotesResource(), {
    authenticate: true,
    policy: notePolicy,
    member: { publish: "post" },
  });
  return app;
}

async function as(user: { id: string } | undefined) {
  const client = testClient(notesApp(), {
    sessionSecret: SECRET,
    headers: { accept: "application/json" },
  });
  if (user) await signIn(client, user);
  return client;
}

async function body<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

describe("app.resource's ownedBy", () => {
  it("keeps each user to their own records on all five operations, whatever user_id a body names", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    const created = await ada.post("/notes", { json: { title: "Ada's", user_id: BOB.id } });
    expect(created.status, await created.clone().text()).toBe(201);
    const note = await body<Note>(created);
    expect(note.user_id).toBe(ADA.id);
    await bob.post("/notes", { json: { title: "Bob's" } });

    const adaList = await body<Note[]>(await ada.get("/notes"));
    expect(adaList.map((n) => n.id)).toContain(note.id);
    expect(new Set(adaList.map((n) => n.user_id))).toEqual(new Set([ADA.id]));
    const bobList = await body<Note[]>(await bob.get("/notes"));
    expect(bobList.length).toBeGreaterThan(0);
    expect(bobList.map((n) => n.id)).not.toContain(note.id);

    const path = `/notes/${note.id}`;
    expect((await bob.get(path)).status).toBe(404);
    expect((await bob.put(path, { json: { title: "Bob was here" } })).status).toBe(404);
    expect((await bob.delete(path)).status).toBe(404);
    expect(await body<Note>(await ada.get(path))).toMatchObject({
      title: "Ada's",
      user_id: ADA.id,
    });

    // Ada cannot hand her note to Bob either.
    const moved = await ada.put(path, { json: { title: "Still Ada's", user_id: BOB.id } });
    expect(await body<Note>(moved)).toMatchObject({ title: "Still Ada's", user_id: ADA.id });
    expect((await ada.delete(path)).status).toBe(200);
  });

  it("needs a signed-in user on every route, and marks the routes in the route data", async () => {
    const guest = await as(undefined);
    expect((await guest.get("/notes")).status).toBe(401);
    expect((await guest.post("/notes", { json: { title: "x" } })).status).toBe(401);
    // The route data the OpenAPI document and the routes table read.
    const { core } = notesApp() as unknown as { core: AppCore };
    const records = core.registry.records.filter((r) => r.path.display.startsWith("/notes"));
    expect(records.length).toBe(5);
    for (const record of records)
      expect(record).toMatchObject({ authenticated: true, ownedBy: "user_id" });
  });

  it("refuses an owned List that never asked for c.ownerScope(), rather than list everyone's", async () => {
    const res = await (await as(ADA)).get("/leaky");
    expect(res.status).toBe(500);
  });

  it("refuses a declared collection route that never asked for c.ownerScope(), as List", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    const title = `searched ${Date.now()}`;
    expect((await ada.post("/searchable", { json: { title } })).status).toBe(201);
    const mine = await ada.get(`/searchable/search?title=${encodeURIComponent(title)}`);
    expect((await body<Note[]>(mine)).map((n) => n.user_id)).toEqual([ADA.id]);
    expect(await body<Note[]>(await bob.get(`/searchable/search?title=${title}`))).toEqual([]);
    // The route that forgot the scope shows nobody's records: it is refused, whoever asks.
    const leaked = await bob.get(`/searchable/everything?title=${encodeURIComponent(title)}`);
    expect(leaked.status).toBe(500);
    expect(await leaked.text()).not.toContain(title);
  });

  it("refuses ownedBy with authenticate limited to some operations", () => {
    const app = new App({ name: "notes" });
    expect(() =>
      app.resource("/notes", new NotesResource(), { ownedBy: "user_id", authenticate: ["create"] }),
    ).toThrow(/NotesResource: ownedBy "user_id" signs in every route/);
  });
});

describe("app.resource's policy and authorize", () => {
  it("asks the rule of each operation before the handler: 403 when it says no", async () => {
    const ada = await as(ADA);
    const root = await as(ROOT);
    const note = await body<Note>(
      await ada.post("/shared", { json: { title: "open", user_id: ADA.id } }),
    );
    const locked = await body<Note>(
      await ada.post("/shared", { json: { title: "locked", locked: true, user_id: ADA.id } }),
    );
    // No rule for show: any signed-in user (a shared resource).
    expect((await (await as(BOB)).get(`/shared/${note.id}`)).status).toBe(200);
    expect((await ada.put(`/shared/${note.id}`, { json: { title: "edited" } })).status).toBe(200);
    const refused = await ada.put(`/shared/${locked.id}`, { json: { title: "edited" } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("not allowed to update this record");
    expect(await body<Note>(await root.get(`/shared/${locked.id}`))).toMatchObject({
      title: "locked",
    });
    expect((await root.put(`/shared/${locked.id}`, { json: { title: "by root" } })).status).toBe(
      200,
    );
    expect((await ada.delete(`/shared/${note.id}`)).status).toBe(403);
    expect((await root.delete(`/shared/${note.id}`)).status).toBe(200);
    expect((await root.delete(`/shared/${note.id}`)).status).toBe(404);
  });

  it("checks a declared member route's rule, and authorize(c, ...) in a handler", async () => {
    const ada = await as(ADA);
    const note = await body<Note>(
      await ada.post("/shared", { json: { title: "to publish", user_id: ADA.id } }),
    );
    expect((await (await as(BOB)).post(`/shared/${note.id}/publish`)).status).toBe(403);
    expect(await body(await ada.post(`/shared/${note.id}/publish`))).toEqual({
      published: note.id,
    });
  });
});
