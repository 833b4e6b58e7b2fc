import { describe, expect, it } from "vitest";
import { buildPath } from "./build-path.js";
import { joinPaths, parsePathTemplate } from "./path-template.js";

describe("parsePathTemplate", () => {
  it.each([
    ["/", "/", "/", "/"],
    ["/foo", "/foo", "/foo/", "/foo"],
    ["/foo/", "/foo", "/foo/", "/foo"],
    [
      "//widgets//{widget_id}/",
      "/widgets/{widget_id}",
      "/widgets/{widget_id}/",
      "/widgets/:widget_id",
    ],
    [
      "/articles/{id:[0-9]+}",
      "/articles/{id:[0-9]+}",
      "/articles/{id:[0-9]+}/",
      "/articles/:id{[0-9]+}",
    ],
    ["/files/{rest:.+/.+}", "/files/{rest:.+/.+}", "/files/{rest:.+/.+}/", "/files/:rest{.+/.+}"],
  ])("%s -> template %s, display %s, hono %s", (input, template, display, hono) => {
    const parsed = parsePathTemplate(input);
    expect([parsed.template, parsed.display, parsed.honoPath]).toEqual([template, display, hono]);
  });

  it("lists the parameters with their patterns", () => {
    expect(parsePathTemplate("/a/{x}/b/{y:[a-z]+}").params).toEqual([
      { name: "x", pattern: "[^/]+" },
      { name: "y", pattern: "[a-z]+" },
    ]);
  });

  it.each([
    ["/a/x{y}", "invalid path parameter"],
    ["/a/{1x}", "invalid path parameter"],
    ["/a/{x}/{x}", "appears twice"],
    ["/a/{x:[}", "invalid regex for {x}"],
  ])("rejects %s", (input, message) => {
    expect(() => parsePathTemplate(input)).toThrow(message);
  });

  it("joins like path.Join", () => {
    expect(joinPaths("/", "/widgets/", "")).toBe("/widgets");
    expect(joinPaths("/api/v1", "foo")).toBe("/api/v1/foo");
    expect(joinPaths("", "")).toBe("/");
  });
});

describe("buildPath (Buffalo 11c/11d, without the trailing slash)", () => {
  const build = (path: string, params?: Record<string, unknown>) =>
    buildPath("testPath", parsePathTemplate(path), params);

  it.each([
    ["/", {}, "/"],
    ["/foo", {}, "/foo"],
    ["/test/{id}", { id: 1 }, "/test/1"],
    ["/users/{user_id}", { user_id: 1 }, "/users/1"],
    ["/car/{car_id}/edit", { car_id: 1, other: 12 }, "/car/1/edit?other=12"],
    ["/", { some: "variable", other: 12 }, "/?other=12&some=variable"],
    ["/", { "special/": "12=ss" }, "/?special%2F=12%3Dss"],
    ["/test/{name}", { name: "myTest" }, "/test/myTest"],
    ["/widgets/{widget_id}", { widget_id: 1, page: 1 }, "/widgets/1?page=1"],
    ["/w/{id}", { id: "a b&c" }, "/w/a%20b%26c"],
    ["/files/{rest:.+}", { rest: "a/b" }, "/files/a%2Fb"],
    ["/w/{id}", { id: 5, skip: undefined, none: null }, "/w/5"],
    ["/w/{id}/x", { id: "0190f5a2-7B1c.7c_e~8f00" }, "/w/0190f5a2-7B1c.7c_e~8f00/x"],
    ["/w/{id}", { id: "café" }, "/w/caf%C3%A9"],
    ["/w/{id}", { id: "a+b" }, "/w/a%2Bb"],
    ["/w/{id}", { id: true }, "/w/true"],
  ])("%s with %j -> %s", (path, params, expected) => {
    expect(build(path, params)).toBe(expected);
  });

  // Apart from the table: vitest cannot carry a BigInt in a test's title between workers.
  it("writes a bigint placeholder as its digits", () => {
    expect(build("/w/{id}", { id: 10n })).toBe("/w/10");
  });

  it("names the route and the parameter when one is missing", () => {
    expect(() => build("/users/{user_id}", {})).toThrow(
      'missing parameters for /users/{user_id}/: testPath needs "user_id"',
    );
  });

  it("refuses a value that does not match the parameter's pattern", () => {
    expect(() => build("/articles/{id:[0-9]+}", { id: "abc" })).toThrow(
      'testPath: parameter "id" = "abc" does not match [0-9]+',
    );
    expect(() => build("/w/{id}", { id: "a/b" })).toThrow(
      'testPath: parameter "id" = "a/b" does not match [^/]+',
    );
  });
});
