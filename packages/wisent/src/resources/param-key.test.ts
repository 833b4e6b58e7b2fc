import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { paramKeyFromPath } from "../naming/index.js";
import { resourceParamKey } from "./param-key.js";
import { Resource } from "./resource.js";

class WidgetsResource extends Resource<"widget_id"> {
  override list(c: Context) {
    return c.text("list");
  }
  override show(c: Context) {
    return c.text(`show ${c.req.param("widget_id")}`);
  }
}
/** What a minifier leaves of a class name. */
const minified = (name: string) => {
  const renamed = class extends WidgetsResource {};
  Object.defineProperty(renamed, "name", { value: name });
  return new renamed();
};
class Pinned extends WidgetsResource {
  static override paramKey = "sku";
}

/** How a resource was written, where it is mounted, and the parameter and show route it gets. */
const CASES: ReadonlyArray<readonly [string, () => Resource, string, string, string]> = [
  ["a named class", () => new WidgetsResource(), "/widgets", "widget_id", "widgetPath"],
  [
    "an anonymous subclass",
    () => new (class extends WidgetsResource {})(),
    "/widgets",
    "widget_id",
    "widgetPath",
  ],
  ["a minified name", () => minified("e"), "/widgets", "widget_id", "widgetPath"],
  [
    "a minified name, nested path",
    () => minified("Xe"),
    "/admin/user_profiles",
    "user_profile_id",
    "adminUserProfilePath",
  ],
  [
    "a class without the Resource suffix",
    () => minified("People"),
    "/people",
    "person_id",
    "personPath",
  ],
  ["a static paramKey", () => new (class extends Pinned {})(), "/widgets", "sku", "widgetSkuPath"],
];

describe("resourceParamKey", () => {
  it.each(CASES)("%s at %s", (_, make, path, key, showName) => {
    expect(resourceParamKey(make(), path)).toBe(key);
    const app = new App({ name: "t" });
    app.resource(path, make() as WidgetsResource, { only: ["list", "show"] });
    const show = app.routes().find((r) => r.handler.endsWith(".Show"))!;
    expect(show.handler).not.toBe("Resource.Show");
    expect(show.path).toBe(`${path.replace(/\/$/, "")}/{${key}}/`);
    expect(show.name).toBe(showName);
  });

  it.each([
    ["an anonymous class", () => new (class extends WidgetsResource {})(), "an anonymous class"],
    ["a minified name", () => minified("e"), "class e"],
  ])("refuses %s at a path without a word, never {_id}", (_, make, what) => {
    const app = new App({ name: "t" });
    expect(() => app.resource("/{slug}", make() as WidgetsResource)).toThrow(
      `resource("/{slug}", ...): cannot name its path parameter: neither ${what} nor the path says which resource it is`,
    );
  });
});

describe("paramKeyFromPath", () => {
  it.each([
    ["/widgets", "widget_id"],
    ["/admin/user-profiles", "user_profile_id"],
    ["/people/", "person_id"],
    ["/widgets/{widget_id}/images", "image_id"],
    ["/", undefined],
    ["/{slug}", undefined],
  ])("%s -> %s", (path, key) => {
    expect(paramKeyFromPath(path)).toBe(key);
  });
});
