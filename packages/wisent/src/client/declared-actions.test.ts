/**
 * Declared member and collection routes (`member: { publish: "post" }`, `collection: { search:
 * "get" }`) in the OpenAPI document and on the typed client: each is an operation with a unique
 * operationId, the document stays valid OpenAPI 3.1 (an independent validator), and the client
 * calls them with typed path parameters (type tests below fail `tsc` when the typing regresses).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import type { Context } from "hono";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { App } from "../app/app.js";
import { Resource } from "../resources/resource.js";
import { createClient } from "./create-client.js";
import type { ActionResult } from "./types.js";

class PostsResource extends Resource<"post_id"> {
  override show(c: Context) {
    return c.json({ id: c.req.param("post_id") });
  }
  async publish(c: Context) {
    const body = (await c.req.json()) as { by?: string };
    return c.json({ id: c.req.param("post_id"), published: true, by: body.by ?? null });
  }
  search(c: Context) {
    return c.json({ q: c.req.query("q") ?? null });
  }
  async archive(c: Context) {
    return c.json({ archived: ((await c.req.json()) as { ids: string[] }).ids });
  }
}

class CommentsResource extends Resource<"comment_id"> {
  like(c: Context) {
    return c.json({ post: c.req.param("post_id"), liked: c.req.param("comment_id") });
  }
  recent(c: Context) {
    return c.json({ post: c.req.param("post_id"), limit: Number(c.req.query("limit")) });
  }
}

function shop() {
  const app = new App({ name: "blog", api: true, env: "test", version: "1.0.0" });
  const posts = app.resource("/posts", new PostsResource(), {
    member: { publish: "post" },
    collection: { search: "get", archive: "post" },
  });
  const postComments = posts.resource("/comments", new CommentsResource(), {
    member: { like: "post" },
    collection: { recent: "get" },
  });
  app.openapi("/openapi.json");
  return { app, posts, postComments };
}
type Module = Omit<ReturnType<typeof shop>, "app">;

describe("declared member and collection routes in the OpenAPI document", () => {
  const { app } = shop();
  const document = app.openApiDocument();
  const op = (method: string, path: string) =>
    document.paths[path]?.[method] as Record<string, unknown> | undefined;

  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each([
    ["post", "/posts/{post_id}/publish", "postPublish", "publish", "member"],
    ["get", "/posts/search", "postsSearch", "search", "collection"],
    ["post", "/posts/archive", "postsArchive", "archive", "collection"],
    ["post", "/posts/{post_id}/comments/{comment_id}/like", "postCommentLike", "like", "member"],
    ["get", "/posts/{post_id}/comments/recent", "postCommentsRecent", "recent", "collection"],
  ])("%s %s is operation %s", (method, path, operationId, action, declared) => {
    expect(op(method, path)).toMatchObject({
      operationId,
      "x-wisent-action": action,
      "x-wisent-declared": declared,
    });
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const parameters = (op(method, path)?.parameters ?? []) as { name: string }[];
    expect(parameters.map((p) => p.name)).toEqual(names);
    expect(Boolean(op(method, path)?.requestBody)).toBe(method !== "get");
  });

  it("keeps every operationId unique", () => {
    const ids = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((o) => (o as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("postShow");
  });
});

describe("declared actions on the typed client", () => {
  let api: ReturnType<typeof createClient<Module>>;
  beforeAll(() => {
    api = createClient<Module>({ fetch: shop().app.fetch });
  });

  it("calls a member action with its path parameters and a body", async () => {
    const published = await api.posts.publish({ post_id: "7" }, { by: "ann" });
    expect(published).toMatchObject({
      ok: true,
      status: 200,
      data: { id: "7", published: true, by: "ann" },
    });
    expectTypeOf(published).toEqualTypeOf<ActionResult>();
    const liked = await api.postComments.like({ post_id: "7", comment_id: "3" });
    expect(liked).toMatchObject({ ok: true, data: { post: "7", liked: "3" } });
  });

  it("calls a collection action: a GET with its query, a POST with its body, nested too", async () => {
    expect(await api.posts.search({ q: "lamp" })).toMatchObject({ ok: true, data: { q: "lamp" } });
    expect(await api.posts.archive({ ids: ["1", "2"] })).toMatchObject({
      data: { archived: ["1", "2"] },
    });
    expect(await api.postComments.recent({ post_id: "7", limit: 5 })).toMatchObject({
      data: { post: "7", limit: 5 },
    });
  });

  it("refuses at compile time what the declarations do not have", () => {
    const typeOnly = (client: typeof api) => {
      // @ts-expect-error a member action needs the record's key
      void client.posts.publish({});
      // @ts-expect-error a nested action needs its parent's key
      void client.postComments.recent({ limit: 5 });
      // @ts-expect-error no action publsh is declared
      void client.posts.publsh;
      // @ts-expect-error actions belong to the resource that declares them
      void client.postComments.publish;
    };
    expectTypeOf(typeOnly).toBeFunction();
  });
});
