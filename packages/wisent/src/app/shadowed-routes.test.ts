import { readFileSync } from "node:fs";
import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { Resource } from "../resources/resource.js";
import { App } from "./app.js";

class WidgetsResource extends Resource<"widget_id"> {
  override show(c: Context) {
    return c.text(`show ${c.req.param("widget_id")}`);
  }
  search(c: Context) {
    return c.text("search");
  }
}

class ImagesResource extends Resource<"image_id"> {}

function SearchHandler(c: Context) {
  return c.text("search");
}

const HERE = "packages/wisent/src/app/shadowed-routes.test.ts";
const SOURCE = readFileSync(new URL(import.meta.url), "utf8").split("\n");

/** `file:line:column` of the first line holding `call` (the method name where V8 points). */
function placeOf(call: string): string {
  const line = SOURCE.findIndex((text) => text.includes(call) && !text.includes("placeOf"));
  return `${HERE}:${line + 1}:${SOURCE[line]!.indexOf(call) + 1}`;
}

describe("an app with a route that can never match", () => {
  it("refuses to start: listen and the first request throw, naming both routes, places and fix", async () => {
    const app = new App({ name: "t" });
    app.resource("/widgets", new WidgetsResource());
    app.get("/widgets/search", SearchHandler);
    const message =
      "a route can never match:\n" +
      `- GET /widgets/search/ (widgetsSearchPath, SearchHandler) declared at ${placeOf('get("/widgets/search", SearchHandler);')} can never match: ` +
      `GET /widgets/{widget_id}/ (widgetPath, WidgetsResource.Show) declared at ${placeOf('resource("/widgets", new WidgetsResource());')} is declared earlier ` +
      'and matches every request it would; declare it before the resource, or use collection: { search: "get" } on the resource at /widgets';
    expect(() => app.checkRoutes()).toThrow(message);
    expect(() => app.listen({ port: 0 })).toThrow(message);
    expect(() => app.fetch(new Request("http://localhost/widgets/search"))).toThrow(message);
  });

  it("starts when the route is a collection route or declared before the resource", async () => {
    const declared = new App({ name: "t" });
    declared.resource("/widgets", new WidgetsResource(), { collection: { search: "get" } });
    const before = new App({ name: "t" });
    before.get("/widgets/search", SearchHandler);
    before.resource("/widgets", new WidgetsResource());
    for (const app of [declared, before]) {
      const res = await app.fetch(new Request("http://localhost/widgets/search"));
      expect(await res.text()).toBe("search");
    }
  });

  it("takes constraints into account: a numeric id does not swallow a literal", async () => {
    const app = new App({ name: "t" });
    app.get("/articles/{id:[0-9]+}", (c) => c.text(`article ${c.req.param("id")}`));
    app.get("/articles/latest", (c) => c.text("latest"));
    expect(await (await app.fetch(new Request("http://localhost/articles/latest"))).text()).toBe(
      "latest",
    );
    app.get("/articles/42", (c) => c.text("never"));
    expect(() => app.checkRoutes()).toThrow(
      `GET /articles/42/ (articles42Path, anonymous) declared at ${placeOf('get("/articles/42"')} can never match: GET /articles/{id:[0-9]+}/ (articleId09Path, anonymous) declared at ${placeOf('get("/articles/{id')}`,
    );
  });

  it("the generated app's shape starts: a root route, resources, the static catch-all", async () => {
    const app = new App({ name: "t" });
    app.get("/", (c) => c.text("home"));
    const widgets = app.resource("/widgets", new WidgetsResource());
    widgets.resource("/images", new ImagesResource());
    app.serveFiles("/", "public");
    expect(() => app.checkRoutes()).not.toThrow();
    expect(await (await app.fetch(new Request("http://localhost/widgets/3"))).text()).toBe(
      "show 3",
    );
  });
});
