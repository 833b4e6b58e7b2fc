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
import { type TestClient, testClient } from "../testing/test-client.js";
import { authentication } from "./authentication.js";
import { definePolicy } from "./policy.js";

// Authors owned by their user, with books nested in them (as `wisent g r author name` and
// `g r book title --parent author` make them after `g auth`), and a public shelf with owned items.
const SECRET = "a-test-secret-of-at-least-32-characters!";
const ADA = { id: "0190f5a2-7b1c-7cde-8f00-00000000000a" };
const BOB = { id: "0190f5a2-7b1c-7cde-8f00-00000000000b" };
const USERS = new Map([ADA, BOB].map((u) => [u.id, u]));

const Author = defineModel({
  table: "authors",
  schema: z.object({ user_id: z.uuid(), name: z.string() }),
});
const Book = defineModel({
  table: "books",
  schema: z.object({ user_id: z.uuid(), author_id: z.uuid(), title: z.string() }),
});
type Book = RecordOf<typeof Book>;
const Shelf = defineModel({ table: "shelves", schema: z.object({ name: z.string() }) });

class AuthorsResource extends Resource<"author_id"> {
  override readonly model = Author;
  override async create(c: Context) {
    return c.json(await Author.create(await c.tx(), (await c.bind()) as never), 201);
  }
}

class ShelvesResource extends Resource<"shelf_id"> {
  override readonly model = Shelf;
}

/**
 * The generated nested handlers: the parent is loaded by its id alone (`Author.find(tx, id)`), as
 * a handler written before ownership would; the guard is what keeps other users out.
 */
function booksOf(parentKey: string, Parent: typeof Author | typeof Shelf) {
  const parentOf = async (c: Context) => Parent.find(await c.tx(), c.req.param(parentKey)!);
  return new (class BooksResource extends Resource<"book_id"> {
    override readonly model = Book;
    override async list(c: Context) {
      const parent = await parentOf(c);
      const query = Book.query(await c.tx(), c.ownerScope()).where("author_id", "=", parent.id);
      return c.json(await query.execute());
    }
    override async show(c: Context) {
      // A shallow route has no parent id: the record is found by its own.
      if (c.req.param(parentKey) !== undefined) await parentOf(c);
      return c.json(await Book.find(await c.tx(), c.req.param("book_id")!));
    }
    async new(c: Context) {
      return c.html(`<h1>New book of ${(await parentOf(c)).id}</h1>`);
    }
    override async create(c: Context) {
      const input = await c.bind();
      const parent = await parentOf(c);
      return c.json(
        await Book.create(await c.tx(), { ...input, author_id: parent.id } as Book),
        201,
      );
    }
    async edit(c: Context) {
      await parentOf(c);
      return c.html(`<h1>Edit ${c.req.param("book_id")}</h1>`);
    }
    override async update(c: Context) {
      const input = await c.bind();
      await parentOf(c);
      const tx = await c.tx();
      return c.json(await Book.update(tx, await Book.find(tx, c.req.param("book_id")!), input));
    }
    override async destroy(c: Context) {
      await parentOf(c);
      const tx = await c.tx();
      return c.json(await Book.destroy(tx, await Book.find(tx, c.req.param("book_id")!)));
    }
  })();
}

let db: Database;
beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
  await createTable(db.kysely, "users", (t) => {
    t.uuid("id").primary();
  });
  await createTable(db.kysely, "authors", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.string("name");
    t.timestamps();
  });
  await createTable(db.kysely, "shelves", (t) => {
    t.uuid("id").primary();
    t.string("name");
    t.timestamps();
  });
  // author_id holds an author's or a shelf's id: one table for both parents keeps the test short.
  await createTable(db.kysely, "books", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.uuid("author_id");
    t.string("title");
    t.timestamps();
  });
  for (const user of USERS.values())
    await db.kysely.insertInto("users").values({ id: user.id }).execute();
});
afterAll(() => db.close());

function libraryApp() {
  const app = new App({ name: "library" });
  app.use(session({ secret: SECRET }));
  app.use(transaction(db));
  app.use(authentication({ load: (_c, id) => USERS.get(id) }));
  const authors = app.resource("/authors", new AuthorsResource(), {
    ownedBy: "user_id",
    only: ["create", "show"],
  });
  authors.resource("/books", booksOf("author_id", Author), { ownedBy: "user_id" });
  authors.get("/stats", (c) => c.json({ author: c.req.param("author_id") }));
  // Shallow: List, New and Create under the author; the routes on one book at /notes/{book_id}.
  authors.resource("/notes", booksOf("author_id", Author), {
    ownedBy: "user_id",
    shallow: true,
    only: ["list", "create", "show"],
  });
  // Shared authors whose policy lets only their own user see one: its books are refused too.
  const guarded = app.resource("/guarded", new AuthorsResource(), {
    authenticate: true,
    policy: definePolicy({
      show: (user, author: { user_id: string }) => author.user_id === user.id,
    }),
    only: ["create"],
  });
  guarded.resource("/books", booksOf("author_id", Author), { ownedBy: "user_id" });
  const shelves = app.resource("/shelves", new ShelvesResource(), { only: ["show"] });
  shelves.resource("/books", booksOf("shelf_id", Shelf), { ownedBy: "user_id" });
  return app;
}

async function as(user: { id: string } | undefined, accept = "application/json") {
  const client = testClient(libraryApp(), { sessionSecret: SECRET, headers: { accept } });
  if (user) await signIn(client, user);
  return client;
}

async function created<T>(client: TestClient, path: string, json: object): Promise<T> {
  const res = await client.post(path, { json });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as T;
}

describe("resources nested in an owned resource", () => {
  it("answer 404 to another user on every operation under the parent, in JSON and HTML", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    const author = await created<{ id: string }>(ada, "/authors", { name: "Ada's" });
    const books = `/authors/${author.id}/books`;
    const book = await created<Book>(ada, books, { title: "Ada's book" });
    const path = `${books}/${book.id}`;

    expect((await bob.get(books)).status).toBe(404);
    expect((await bob.post(books, { json: { title: "Bob's book" } })).status).toBe(404);
    expect((await bob.get(path)).status).toBe(404);
    expect((await bob.put(path, { json: { title: "Bob was here" } })).status).toBe(404);
    expect((await bob.delete(path)).status).toBe(404);
    expect((await bob.get(`/authors/${author.id}/stats`)).status).toBe(404);
    const bobHtml = await as(BOB, "text/html");
    expect((await bobHtml.get(`${books}/new`)).status).toBe(404);
    expect((await bobHtml.get(`${path}/edit`)).status).toBe(404);
    expect((await bobHtml.get(books)).status).toBe(404);
    // Nothing of Bob's was made under Ada's author, and hers is untouched.
    const listed = (await (await ada.get(books)).json()) as Book[];
    expect(listed.map((b) => b.title)).toEqual(["Ada's book"]);
    expect((await ada.get(`${books}/new`, { headers: { accept: "text/html" } })).status).toBe(200);
    expect((await ada.get(`/authors/${author.id}/stats`)).status).toBe(200);
  });

  it("need a signed-in user, and say so in the route data", async () => {
    const author = await created<{ id: string }>(await as(ADA), "/authors", { name: "A" });
    const guest = await as(undefined);
    expect((await guest.get(`/authors/${author.id}/books`)).status).toBe(401);
    expect((await guest.get(`/authors/${author.id}/stats`)).status).toBe(401);
    const { core } = libraryApp() as unknown as { core: AppCore };
    const nested = core.registry.records.filter((r) => r.path.display.startsWith("/authors/{"));
    expect(nested.length).toBe(11);
    for (const record of nested) expect(record).toMatchObject({ authenticated: true });
  });

  it("leave shallow routes (no parent id in the path) to the nested resource's own ownedBy", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    const author = await created<{ id: string }>(ada, "/authors", { name: "Shallow" });
    const notes = `/authors/${author.id}/notes`;
    const note = await created<Book>(ada, notes, { title: "Ada's note" });
    expect((await bob.post(notes, { json: { title: "Bob's" } })).status).toBe(404);
    // The shallow Show: the nested resource's ownedBy finds the record within the user's own.
    expect((await ada.get(`/notes/${note.id}`)).status).toBe(200);
    expect((await bob.get(`/notes/${note.id}`)).status).toBe(404);
    expect((await (await as(undefined)).get(`/notes/${note.id}`)).status).toBe(401);
  });

  it("ask the parent's show rule of its policy: 403 under a parent it refuses", async () => {
    const ada = await as(ADA);
    const author = await created<{ id: string }>(ada, "/guarded", {
      name: "Ada's",
      user_id: ADA.id,
    });
    const books = `/guarded/${author.id}/books`;
    await created<Book>(ada, books, { title: "Ada's book" });
    const bob = await as(BOB);
    const refused = await bob.get(books);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("not allowed to show this record");
    expect((await bob.post(books, { json: { title: "Bob's" } })).status).toBe(403);
    expect((await (await as(undefined)).get(books)).status).toBe(401);
  });

  it("under a public parent, keep each user's own records apart (the nested resource's ownedBy)", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    const shelf = await Shelf.create(db.kysely, { name: "Everyone's" });
    const books = `/shelves/${shelf.id}/books`;
    const adas = await created<Book>(ada, books, { title: "Ada's" });
    const bobs = await created<Book>(bob, books, { title: "Bob's" });
    expect(((await (await bob.get(books)).json()) as Book[]).map((b) => b.id)).toEqual([bobs.id]);
    expect(((await (await ada.get(books)).json()) as Book[]).map((b) => b.id)).toEqual([adas.id]);
    expect((await bob.get(`${books}/${adas.id}`)).status).toBe(404);
    expect((await (await as(undefined)).get(books)).status).toBe(401);
  });
});

describe("findParent in a nested handler", () => {
  // Models of their own, whose finds are counted: the guard and the handler meet on the model.
  const CountedAuthor = defineModel({
    table: "authors",
    schema: z.object({ user_id: z.uuid(), name: z.string() }),
  });
  const CountedShelf = defineModel({ table: "shelves", schema: z.object({ name: z.string() }) });
  const finds = { author: 0, shelf: 0 };
  for (const [name, model] of [
    ["author", CountedAuthor],
    ["shelf", CountedShelf],
  ] as const) {
    const find = model.find.bind(model);
    model.find = ((...args: Parameters<typeof find>) => {
      finds[name]++;
      return find(...args);
    }) as typeof model.find;
  }

  class CountedAuthorsResource extends Resource<"author_id"> {
    static override paramKey = "author_id";
    override readonly model = CountedAuthor;
    override async create(c: Context) {
      return c.json(await CountedAuthor.create(await c.tx(), (await c.bind()) as never), 201);
    }
  }
  class CountedShelvesResource extends Resource<"shelf_id"> {
    static override paramKey = "shelf_id";
    override readonly model = CountedShelf;
  }
  const chaptersOf = (Parent: typeof CountedAuthor | typeof CountedShelf, key: string) =>
    new (class ChaptersResource extends Resource<"chapter_id"> {
      override async list(c: Context) {
        const parent = await this.findParent(c, await c.tx(), Parent, key);
        return c.json({ parent: parent.id });
      }
    })();

  function countedApp() {
    const app = new App({ name: "library" });
    app.use(session({ secret: SECRET }));
    app.use(transaction(db));
    app.use(authentication({ load: (_c, id) => USERS.get(id) }));
    app
      .resource("/authors", new CountedAuthorsResource(), { ownedBy: "user_id", only: ["create"] })
      .resource("/chapters", chaptersOf(CountedAuthor, "author_id"), { only: ["list"] });
    app
      .resource("/shelves", new CountedShelvesResource(), { only: [] })
      .resource("/chapters", chaptersOf(CountedShelf, "shelf_id"), { only: ["list"] });
    return app;
  }

  it("takes the parent its guard found: one query for the parent a request", async () => {
    const ada = testClient(countedApp(), {
      sessionSecret: SECRET,
      headers: { accept: "application/json" },
    });
    await signIn(ada, ADA);
    const author = await created<{ id: string }>(ada, "/authors", { name: "Counted" });
    finds.author = 0;
    const res = await ada.get(`/authors/${author.id}/chapters`);
    expect([res.status, await res.json()]).toEqual([200, { parent: author.id }]);
    expect(finds.author).toBe(1);
    // Another user's author: the guard's 404, before the handler.
    const bob = testClient(countedApp(), {
      sessionSecret: SECRET,
      headers: { accept: "application/json" },
    });
    await signIn(bob, BOB);
    expect((await bob.get(`/authors/${author.id}/chapters`)).status).toBe(404);
  });

  it("finds the parent itself under a parent no guard checks (404 when it is missing)", async () => {
    const client = testClient(countedApp(), { headers: { accept: "application/json" } });
    const [shelf] = await db.kysely
      .insertInto("shelves")
      .values({
        id: "0190f5a2-7b1c-7cde-8f00-0000000000c1",
        name: "Open",
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning("id")
      .execute();
    finds.shelf = 0;
    const res = await client.get(`/shelves/${shelf!.id}/chapters`);
    expect([res.status, await res.json()]).toEqual([200, { parent: shelf!.id }]);
    expect(finds.shelf).toBe(1);
    const missing = await client.get("/shelves/0190f5a2-7b1c-7cde-8f00-0000000000c2/chapters");
    expect(missing.status).toBe(404);
  });
});
