import { describe, expect, it } from "vitest";
import { pathName, routeNameForPath } from "./route-name.js";
import { PATH_NAME_CASES, ROUTE_NAME_CASES } from "./test-support/cases.js";

describe("routeNameForPath", () => {
  it.each(ROUTE_NAME_CASES)("%s -> %s", (path, name) => {
    expect(routeNameForPath(path)).toBe(name);
  });

  it.each(ROUTE_NAME_CASES)("%s names the same with or without a trailing slash", (path) => {
    const other = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
    expect(routeNameForPath(other)).toBe(routeNameForPath(path));
  });

  describe("collection option (Rails' index suffix for uncountables)", () => {
    it("appends Index to an uncountable collection", () => {
      expect(routeNameForPath("/news/", { collection: true })).toBe("newsIndexPath");
      expect(routeNameForPath("/admin/sheep/", { collection: true })).toBe("adminSheepIndexPath");
      expect(routeNameForPath("/users/{user_id}/news/", { collection: true })).toBe(
        "userNewsIndexPath",
      );
    });

    it("changes nothing for countable words, members, or without the option", () => {
      expect(routeNameForPath("/widgets/", { collection: true })).toBe("widgetsPath");
      expect(routeNameForPath("/news/{news_id}/", { collection: true })).toBe("newsPath");
      expect(routeNameForPath("/news/new/", { collection: true })).toBe("newNewsPath");
      expect(routeNameForPath("/news/")).toBe("newsPath");
    });
  });

  it("rejects a non-string path", () => {
    expect(() => routeNameForPath(undefined as unknown as string)).toThrow(
      "routeNameForPath: path must be a string, got undefined",
    );
  });
});

describe("pathName", () => {
  it.each(PATH_NAME_CASES)("%s -> %s", (name, expected) => {
    expect(pathName(name)).toBe(expected);
  });

  it.each(["", "  ", "{}"])("rejects %j", (name) => {
    expect(() => pathName(name)).toThrow(/^pathName: name/);
  });
});
