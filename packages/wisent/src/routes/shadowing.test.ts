import { describe, expect, it } from "vitest";
import { parsePathTemplate } from "./path-template.js";
import { type CheckedRoute, shadowedRoutes, shadows } from "./shadowing.js";
import { formatShadowedRoute } from "./shadowing-message.js";

/** [earlier route, later route, whether the later one can never match]. */
const CASES: [string, string, boolean][] = [
  ["GET /widgets/{widget_id}", "GET /widgets/search", true],
  ["GET /widgets/{widget_id}", "POST /widgets/search", false],
  ["GET /widgets/{widget_id}", "GET /widgets/{id}", true],
  ["GET /widgets/{widget_id}", "GET /widgets/{id:[0-9]+}", true],
  ["GET /widgets/{widget_id}", "GET /widgets/search/more", false],
  ["GET /widgets/{widget_id}", "GET /gadgets/search", false],
  ["GET /widgets/{id:[0-9]+}", "GET /widgets/search", false],
  ["GET /widgets/{id:[0-9]+}", "GET /widgets/42", true],
  ["GET /widgets/{id:[0-9]+}", "GET /widgets/{widget_id}", false],
  ["GET /widgets/{id:[0-9]+}", "GET /widgets/{n:[0-9]+}", true],
  ["GET /widgets/{id:[a-z]+}", "GET /widgets/{n:[0-9]+}", false],
  ["GET /widgets/search", "GET /widgets/{widget_id}", false],
  ["GET /widgets/search", "GET /widgets/search/", true],
  ["GET /widgets", "GET /widgets", true],
  ["PUT /widgets/{widget_id}", "PUT /widgets/{id}", true],
  ["PUT /widgets/{widget_id}", "PATCH /widgets/{id}", false],
  ["GET /", "GET /", true],
  ["GET /", "GET /home", false],
  ["GET /{page}", "GET /about", true],
  ["GET /{a}/{b}", "GET /x/y", true],
  ["GET /{a}/y", "GET /x/{b}", false],
  ["GET /files/{path:.+}", "GET /files/readme", false],
  ["GET /files/{name}", "GET /files/{path:.+}", false],
];

function route(text: string, name = "somePath", handler = "Handler"): CheckedRoute {
  const [method, path] = text.split(" ") as [string, string];
  return { method, path: parsePathTemplate(path), name, handler };
}

describe("shadowed routes", () => {
  it.each(CASES)("%s then %s: shadowed = %s", (earlier, later, expected) => {
    const [a, b] = [route(earlier), route(later)];
    expect(a.method === b.method && shadows(a.path, b.path)).toBe(expected);
    expect(shadowedRoutes([a, b]).length).toBe(expected ? 1 : 0);
    // Declared the other way round, the later route of the pair is the one checked.
    expect(shadowedRoutes([b, a]).every((s) => s.route === a)).toBe(true);
  });

  it("names the earliest route that takes the requests", () => {
    const list = [
      route("GET /widgets/{id:[0-9]+}"),
      route("GET /widgets/{widget_id}"),
      route("GET /widgets/{slug}"),
      route("GET /widgets/7"),
    ];
    const found = shadowedRoutes(list);
    expect(found.map((s) => [s.route, s.by])).toEqual([
      [list[2], list[1]],
      [list[3], list[0]],
    ]);
  });

  it("words the problem: both routes, their places and the fix", () => {
    const show = {
      ...route("GET /widgets/{widget_id}", "widgetPath", "WidgetsResource.Show"),
      declaredAt: "src/app.ts:10:1",
    };
    const search = {
      ...route("GET /widgets/search", "widgetsSearchPath", "SearchHandler"),
      declaredAt: "src/app.ts:12:5",
    };
    expect(formatShadowedRoute({ route: search, by: show })).toBe(
      "GET /widgets/search/ (widgetsSearchPath, SearchHandler) declared at src/app.ts:12:5 can never match: " +
        "GET /widgets/{widget_id}/ (widgetPath, WidgetsResource.Show) declared at src/app.ts:10:1 is declared earlier " +
        'and matches every request it would; declare it before the resource, or use collection: { search: "get" } on the resource at /widgets',
    );
    const twice = route("GET /about", "aboutPath", "AboutHandler");
    expect(formatShadowedRoute({ route: twice, by: twice })).toMatch(
      /declared twice: remove one of them$/,
    );
    const page = route("GET /{page}", "pagePath", "PageHandler");
    expect(formatShadowedRoute({ route: twice, by: page })).toMatch(
      /; declare it before GET \/{page}\/$/,
    );
  });
});
