import type { Context } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import { App } from "../app/app.js";
import { unknownParamMessage } from "../app/param-check.js";
import { Resource } from "./resource.js";
import type { ResourceContext } from "./resource-context.js";

type PostContext = ResourceContext<"post_id">;
type CommentContext = ResourceContext<"post_id" | "comment_id">;

class PostsResource extends Resource<"post_id"> {
  override show(c: PostContext) {
    return c.text(`post ${c.req.param("post_id")}`);
  }
  override update(c: PostContext) {
    // A typo, as a person makes it: tsc refuses it (below), development names it at run time.
    // @ts-expect-error '"postid"' is not assignable to parameter of type '"post_id"'
    return c.text(`post ${c.req.param("postid")}`);
  }
}

class CommentsResource extends Resource<"comment_id"> {
  override show(c: CommentContext) {
    return c.text(`comment ${c.req.param("comment_id")} of ${c.req.param("post_id")}`);
  }
}

describe("ResourceContext: path parameters typed per resource", () => {
  it("takes the resource's key (a string, never undefined) and refuses any other name", () => {
    const check = (c: PostContext) => {
      expectTypeOf(c.req.param("post_id")).toEqualTypeOf<string>();
      expectTypeOf(c.req.param()).toEqualTypeOf<Record<"post_id", string>>();
      // @ts-expect-error the parameter is post_id, not postid
      c.req.param("postid");
      // @ts-expect-error a parent's key only where the resource is nested
      c.req.param("user_id");
    };
    expectTypeOf(check).parameter(0).toEqualTypeOf<PostContext>();
  });

  it("knows a nested resource's parent key too", () => {
    const check = (c: CommentContext) => {
      expectTypeOf(c.req.param("post_id")).toEqualTypeOf<string>();
      expectTypeOf(c.req.param("comment_id")).toEqualTypeOf<string>();
      const someName: string = "post_id";
      // @ts-expect-error any string is not a parameter name (Hono's own param(key: string) is gone)
      c.req.param(someName);
      // @ts-expect-error no post key spelled so
      c.req.param("post");
    };
    expectTypeOf(check).toBeFunction();
  });

  it("is still a Hono Context wherever one is asked for", () => {
    expectTypeOf<CommentContext>().toExtend<Context>();
    const app = new App({ name: "t", env: "test" });
    const posts = app.resource("/posts", new PostsResource());
    posts.resource("/comments", new CommentsResource());
    expect(app.routes().length).toBeGreaterThan(0);
  });
});

describe("an unknown path parameter at run time", () => {
  function appIn(env: string) {
    const app = new App({ name: "t", env });
    const posts = app.resource("/posts", new PostsResource());
    posts.resource("/comments", new CommentsResource());
    app.get("/about", (c) => c.text(String(c.req.param("id"))));
    return {
      request: (path: string, init?: RequestInit) =>
        app.fetch(new Request(`http://localhost${path}`, init)),
    };
  }

  it("is an error in development naming the parameter meant", async () => {
    const app = appIn("development");
    const res = await app.request("/posts/7", {
      method: "PUT",
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain(
      'c.req.param(\\"postid\\"): this route has no path parameter \\"postid\\" (did you mean \\"post_id\\"?); it has post_id',
    );
    const about = await app.request("/about", { headers: { accept: "application/json" } });
    expect(await about.text()).toContain("it has none");
  });

  it("leaves the known ones alone, nested included", async () => {
    const res = await appIn("development").request("/posts/7/comments/9");
    expect(await res.text()).toBe("comment 9 of 7");
  });

  it("answers undefined as Hono does outside development", async () => {
    const res = await appIn("test").request("/posts/7", { method: "PUT" });
    expect(await res.text()).toBe("post undefined");
  });

  it.each([
    [
      "postid",
      ["post_id"],
      'c.req.param("postid"): this route has no path parameter "postid" (did you mean "post_id"?); it has post_id',
    ],
    [
      "id",
      ["post_id", "comment_id"],
      'c.req.param("id"): this route has no path parameter "id"; it has post_id, comment_id',
    ],
    ["x", [], 'c.req.param("x"): this route has no path parameter "x"; it has none'],
  ])("message for %s", (name, known, message) => {
    expect(unknownParamMessage(name, known)).toBe(message);
  });
});
