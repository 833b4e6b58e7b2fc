/**
 * What the OpenAPI document says of an app, as an outside client reads it: update bodies with no
 * `default` the server does not apply, `security` on every operation, a `Location` on every 201,
 * documented routes (`documented(...)`, a resource's `docs`) as they answer, and the info and
 * server an app's package.json and `APP_URL` give.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Context } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { defineModel } from "../data/model.js";
import { documented } from "../resources/operation-doc.js";
import { Resource, SingletonResource } from "../resources/resource.js";
import { decimal } from "../validation/decimal.js";

const Post = {
  name: "post",
  schema: z.object({
    title: z.string().min(1),
    published: z.boolean().default(false),
    notes: z.string().nullable().default(null),
    default: z.string().default("kept: a field may be called default"),
    price: decimal(10, 2, { default: 0 }),
  }),
};

class PostsResource extends Resource<"post_id"> {
  override readonly model = Post;
  override list(c: Context) {
    return c.json([]);
  }
}

const SignUp = z.object({ email: z.string(), password: z.string().min(12) });
class AccountResource extends SingletonResource {
  override readonly docs = {
    create: {
      body: SignUp,
      responses: {
        201: { description: "The account", body: z.object({ id: z.string(), email: z.string() }) },
        422: "Invalid",
      },
    },
  };
  override create(c: Context) {
    return c.json({ id: "1", email: "a@b.c" }, 201);
  }
}

const Revoke = documented({ responses: { 204: "Revoked" } }, (c: Context) => c.body(null, 204));

// biome-ignore lint/suspicious/noExplicitAny: a JSON document, read by path
type Json = any;

function app() {
  const a = new App({ name: "blog", env: "test", api: true, patch: true });
  a.resource("/posts", new PostsResource());
  a.singleton("/account", new AccountResource(), { only: ["create"] });
  a.delete("/tokens/current", Revoke);
  return a;
}

const saved = { APP_URL: process.env.APP_URL, cwd: process.cwd() };
afterEach(() => {
  if (saved.APP_URL === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = saved.APP_URL;
  process.chdir(saved.cwd);
});

describe("the OpenAPI document", () => {
  it("has no default in an update body: an update keeps what it is not sent", () => {
    const doc: Json = app().openApiDocument();
    const update = doc.components.schemas.PostUpdate;
    expect(update.required).toBeUndefined();
    expect(JSON.stringify(update)).not.toContain('"default":false');
    expect(update.properties.published).toEqual({ type: "boolean" });
    expect(update.properties.notes).toEqual({ type: ["string", "null"] });
    expect(Object.keys(update.properties)).toContain("default");
    // Create applies them: they stay there.
    expect(doc.components.schemas.PostInput.properties.published.default).toBe(false);
  });

  it("says a decimal answers as exact text with its scale, and is sent as text or a number", () => {
    const doc: Json = app().openApiDocument();
    const { schemas } = doc.components;
    expect(schemas.Post.properties.price).toEqual({
      type: "string",
      pattern: "^-?(0|[1-9]\\d{0,7})\\.\\d{2}$",
      description: "An exact decimal(10, 2), as text with 2 places.",
    });
    expect(new RegExp(schemas.Post.properties.price.pattern).test("16.00")).toBe(true);
    expect(new RegExp(schemas.Post.properties.price.pattern).test("16")).toBe(false);
    expect(schemas.PostInput.properties.price).toMatchObject({
      type: ["string", "number"],
      default: "0.00",
    });
    expect(schemas.PostUpdate.properties.price.default).toBeUndefined();
  });

  it("says PUT merges and PATCH is the partial update", () => {
    const doc: Json = app().openApiDocument();
    expect(doc.paths["/posts/{post_id}"].put.description).toMatch(/^Merges/);
    expect(doc.paths["/posts/{post_id}"].patch.description).toMatch(/^A partial update/);
  });

  it("marks every operation public or secured, and a 201 with its Location", () => {
    const doc: Json = app().openApiDocument();
    for (const methods of Object.values<Json>(doc.paths)) {
      for (const operation of Object.values<Json>(methods)) {
        expect(operation.security).toEqual([]);
        const created = operation.responses["201"];
        if (created) expect(Object.keys(created.headers)).toContain("Location");
      }
    }
  });

  it("documents routes without a model as they say they answer", () => {
    const doc: Json = app().openApiDocument();
    const signUp = doc.paths["/account"].post;
    expect(signUp.requestBody.content["application/json"].schema).toMatchObject({
      properties: { email: { type: "string" }, password: { type: "string", minLength: 12 } },
      required: ["email", "password"],
    });
    expect(Object.keys(signUp.responses)).toEqual(["201", "405", "415", "422", "429", "503"]);
    expect(signUp.responses["201"].content["application/json"].schema.required).toEqual([
      "id",
      "email",
    ]);
    const revoke = doc.paths["/tokens/current"].delete;
    expect(revoke.responses["204"]).toEqual({ description: "Revoked" });
    expect(revoke.responses["200"]).toBeUndefined();
  });

  it("takes its server from APP_URL, its license and contact from package.json", () => {
    const folder = mkdtempSync(join(tmpdir(), "wisent-openapi-info-"));
    writeFileSync(
      join(folder, "package.json"),
      JSON.stringify({
        version: "2.1.0",
        license: "MIT",
        author: "Ada Lovelace <ada@example.com> (https://example.com)",
      }),
    );
    process.chdir(folder);
    process.env.APP_URL = "https://blog.example.com/";
    const doc: Json = app().openApiDocument();
    expect(doc.servers).toEqual([{ url: "https://blog.example.com" }]);
    expect(doc.info).toEqual({
      title: "blog",
      version: "2.1.0",
      license: { name: "MIT", identifier: "MIT" },
      contact: { name: "Ada Lovelace", email: "ada@example.com", url: "https://example.com" },
    });
  });
});

describe("the OpenAPI document lists every answer an operation can give", () => {
  const Author = defineModel({ table: "authors", schema: z.object({ name: z.string() }) });
  const Book = defineModel({
    table: "books",
    schema: z.object({ isbn: z.string(), author_id: z.string() }),
    unique: ["isbn"],
    references: { author_id: "authors" },
  });
  class AuthorsResource extends Resource<"author_id"> {
    override readonly model = Author;
  }
  class BooksResource extends Resource<"book_id"> {
    override readonly model = Book;
  }
  const doc: Json = (() => {
    const a = new App({ name: "library", env: "test", api: true });
    const authors = a.resource("/authors", new AuthorsResource());
    authors.resource("/books", new BooksResource());
    return a.openApiDocument();
  })();
  const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);

  it("409 on destroying a record other records point to (a restricting reference)", () => {
    expect(statuses("/authors/{author_id}", "delete")).toContain("409");
    expect(doc.paths["/authors/{author_id}"].delete.responses["409"]).toEqual({
      $ref: "#/components/responses/Conflict",
    });
    expect(doc.components.responses.Conflict.description).toMatch(/still referenced/);
    expect(doc.components.responses.Conflict.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    // Nothing points to a book: its delete never answers 409.
    expect(statuses("/authors/{author_id}/books/{book_id}", "delete")).not.toContain("409");
  });

  it("422 on create and update of a model with unique fields and references, saying why", () => {
    expect(statuses("/authors/{author_id}/books", "post")).toContain("422");
    expect(statuses("/authors/{author_id}/books/{book_id}", "put")).toContain("422");
    expect(doc.components.responses.UnprocessableContent.description).toMatch(
      /unique field's value is taken .* referenced record does not exist/,
    );
  });

  it("keeps the statuses of each answer in order", () => {
    expect(statuses("/authors/{author_id}", "delete")).toEqual([
      "200",
      "404",
      "405",
      "406",
      "409",
      "429",
      "503",
    ]);
  });
});
