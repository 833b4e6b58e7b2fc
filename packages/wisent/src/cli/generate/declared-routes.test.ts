import { describe, expect, it } from "vitest";
import {
  declaredRouteData,
  parseDeclaredRoutes,
  resourceOptionsSource,
} from "./declared-routes.js";

describe("--member and --collection", () => {
  it("parse action:method pairs, repeated or comma-separated; the method defaults to get", () => {
    expect(
      parseDeclaredRoutes({ member: ["publish:POST,archive"], collection: ["search"] }),
    ).toEqual({ member: { publish: "post", archive: "get" }, collection: { search: "get" } });
    expect(resourceOptionsSource({ member: ["publish:post"], collection: ["search:get"] })).toBe(
      ', { member: { publish: "post" }, collection: { search: "get" } }',
    );
    expect(resourceOptionsSource({})).toBe("");
  });

  it("name the routes as the App does", () => {
    expect(
      declaredRouteData(
        { member: ["publish:post"], collection: ["search:get"] },
        "/widgets/{widget_id}/images",
        "/widgets/{widget_id}/images/{image_id}",
      ),
    ).toEqual([
      {
        action: "search",
        title: "Search",
        member: false,
        route: "GET /widgets/{widget_id}/images/search",
        name: "searchWidgetImagesPath",
      },
      {
        action: "publish",
        title: "Publish",
        member: true,
        route: "POST /widgets/{widget_id}/images/{image_id}/publish",
        name: "publishWidgetImagePath",
      },
    ]);
  });

  it.each([
    [{ member: ["show:get"] }, "--member: show is a standard operation"],
    [{ member: ["Publish:post"] }, '--member: action "Publish" must be a lower-case method name'],
    [{ collection: ["search:fetch"] }, '--collection: search: "fetch" is not one of get, post'],
    [{ member: ["a:post:x"] }, "--member a:post:x: give action:method, e.g. --member publish:post"],
    [{ member: ["a:post", "a:put"] }, "--member a:put: a is declared twice"],
    [{ member: ["a"], collection: ["a"] }, "--member and --collection both declare a"],
  ])("refuses %j", (flags, message) => {
    expect(() => parseDeclaredRoutes(flags)).toThrow(message);
  });
});
