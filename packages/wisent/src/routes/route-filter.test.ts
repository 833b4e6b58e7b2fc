import { describe, expect, it } from "vitest";
import { filterRoutes, type RouteFilter } from "./route-filter.js";
import type { RouteInfo } from "./route-info.js";

const row = (method: string, path: string, name: string, handler: string): RouteInfo => ({
  method,
  host: "http://127.0.0.1:3000",
  path,
  aliases: [],
  name,
  handler,
});

const ROUTES: RouteInfo[] = [
  row("GET", "/", "rootPath", "HomeHandler"),
  row("GET", "/widgets/", "widgetsPath", "WidgetsResource.List"),
  row("POST", "/widgets/", "widgetsPath", "WidgetsResource.Create"),
  row("GET", "/widgets/{widget_id}/", "widgetPath", "WidgetsResource.Show"),
  row("PUT", "/widgets/{widget_id}/", "widgetPath", "WidgetsResource.Update"),
  row("GET", "/widgets/{widget_id}/images/", "widgetImagesPath", "ImagesResource.List"),
  { ...row("GET", "/about/", "aboutPath", "AboutHandler"), aliases: ["/about-us/"] },
];

const CASES: [string, RouteFilter, string[]][] = [
  [
    "a method, any case",
    { method: "get" },
    ["rootPath", "widgetsPath", "widgetPath", "widgetImagesPath", "aboutPath"],
  ],
  ["a method regex", { method: "/^P/" }, ["widgetsPath", "widgetPath"]],
  ["a name substring, case-insensitive", { name: "IMAGES" }, ["widgetImagesPath"]],
  [
    "a name regex",
    { name: "/^widgets?Path$/" },
    ["widgetsPath", "widgetsPath", "widgetPath", "widgetPath"],
  ],
  ["a path substring", { path: "{widget_id}" }, ["widgetPath", "widgetPath", "widgetImagesPath"]],
  ["a path matching an alias", { path: "about-us" }, ["aboutPath"]],
  ["a handler substring", { handler: "Images" }, ["widgetImagesPath"]],
  ["a handler regex with flags", { handler: "/\\.list$/i" }, ["widgetsPath", "widgetImagesPath"]],
  [
    "combined filters (all must match)",
    { method: "GET", path: "/widgets", handler: "Widgets" },
    ["widgetsPath", "widgetPath"],
  ],
  ["nothing matching", { name: "gadget" }, []],
];

describe("filterRoutes", () => {
  it.each(CASES)("%s", (_, filter, names) => {
    expect(filterRoutes(ROUTES, filter).map((r) => r.name)).toEqual(names);
  });

  it("names the option of a malformed regex", () => {
    expect(() => filterRoutes(ROUTES, { name: "/(/" })).toThrow(
      /^--name: Invalid regular expression/,
    );
  });
});
