import { describe, expect, it } from "vitest";
import { FirstMatchRouter } from "./first-match-router.js";

function router(...routes: [string, string][]): FirstMatchRouter<string> {
  const r = new FirstMatchRouter<string>();
  for (const [method, path] of routes) r.add(method, path, `${method} ${path}`);
  return r;
}

function first(r: FirstMatchRouter<string>, method: string, path: string) {
  const [matches] = r.match(method, path) as [[string, Record<string, string>][]];
  return matches[0];
}

describe("FirstMatchRouter", () => {
  it("returns only the first route that matches, in registration order", () => {
    const r = router(["GET", "/x/new"], ["GET", "/x/:x_id"], ["GET", "/*"]);
    expect(first(r, "GET", "/x/new")).toEqual(["GET /x/new", {}]);
    expect(first(r, "GET", "/x/5")).toEqual(["GET /x/:x_id", { x_id: "5" }]);
    expect(first(r, "GET", "/elsewhere/deep")).toEqual(["GET /*", {}]);
    expect(first(r, "GET", "/")).toEqual(["GET /*", {}]);
    expect((r.match("GET", "/x/5") as unknown[][])[0]).toHaveLength(1);
  });

  it("keeps declaration order across buckets when the first segment is dynamic", () => {
    const r = router(["GET", "/:lang/widgets"], ["GET", "/en/widgets"]);
    expect(first(r, "GET", "/en/widgets")).toEqual(["GET /:lang/widgets", { lang: "en" }]);
  });

  it("matches by method, and ALL matches every method", () => {
    const r = router(["POST", "/x"], ["ALL", "/x"]);
    expect(first(r, "POST", "/x")?.[0]).toBe("POST /x");
    expect(first(r, "DELETE", "/x")?.[0]).toBe("ALL /x");
    expect(first(r, "GET", "/y")).toBeUndefined();
  });

  it("applies custom regexes, even ones with their own groups", () => {
    const r = router(["GET", "/a/:id{[0-9]+}"], ["GET", "/b/:kind{(cat|dog)}/:name"]);
    expect(first(r, "GET", "/a/12")?.[1]).toEqual({ id: "12" });
    expect(first(r, "GET", "/a/x")).toBeUndefined();
    expect(first(r, "GET", "/b/dog/rex")?.[1]).toEqual({ kind: "dog", name: "rex" });
  });

  it("matches a prefix wildcard with and without the rest", () => {
    const r = router(["GET", "/assets/*"]);
    expect(first(r, "GET", "/assets")).toBeDefined();
    expect(first(r, "GET", "/assets/a/b.png")).toBeDefined();
    expect(first(r, "GET", "/assetsx")).toBeUndefined();
  });

  it("accepts a trailing slash on the request path", () => {
    const r = router(["GET", "/x/:id"]);
    expect(first(r, "GET", "/x/1/")?.[1]).toEqual({ id: "1" });
  });

  it("finds routes added after a lookup", () => {
    const r = router(["GET", "/a"]);
    expect(first(r, "GET", "/b")).toBeUndefined();
    r.add("GET", "/b", "GET /b");
    expect(first(r, "GET", "/b")?.[0]).toBe("GET /b");
  });

  // The table was produced by the split-based matcher this one replaced (it cut the path into
  // an array of segments first): empty segments, trailing and doubled slashes, tails, regexes.
  it.each([
    ["/", ["GET /", {}]],
    ["", ["GET /", {}]],
    ["//", ["GET /", {}]],
    ["///", null],
    ["/widgets", ["GET /widgets", {}]],
    ["/widgets/", ["GET /widgets", {}]],
    ["/widgets//", null],
    ["//widgets", null],
    ["/widgets/new", ["GET /widgets/new", {}]],
    ["/widgets/new/", ["GET /widgets/new", {}]],
    ["/widgets/5", ["GET /widgets/:widget_id", { widget_id: "5" }]],
    ["/widgets/5/", ["GET /widgets/:widget_id", { widget_id: "5" }]],
    ["/widgets/%20", ["GET /widgets/:widget_id", { widget_id: "%20" }]],
    ["/widgets//edit", null],
    ["/widgets/5/edit", ["GET /widgets/:widget_id/edit", { widget_id: "5" }]],
    ["/widgets/5/edit/", ["GET /widgets/:widget_id/edit", { widget_id: "5" }]],
    ["/widgets/5/edit/x", null],
    [
      "/widgets/5/images/7",
      ["GET /widgets/:widget_id/images/:image_id", { widget_id: "5", image_id: "7" }],
    ],
    ["/widgets/5/images/", null],
    ["/widgetsx", null],
    ["/widgetsx/5", null],
    ["/widget", null],
    ["/en/about", ["GET /:lang/about", { lang: "en" }]],
    ["/en/about/", ["GET /:lang/about", { lang: "en" }]],
    ["/en//about", null],
    ["/about", null],
    ["/assets", ["GET /assets/*", {}]],
    ["/assets/", ["GET /assets/*", {}]],
    ["/assets/a/b", ["GET /assets/*", {}]],
    ["/x", ["ALL /x", {}]],
    ["/x/", ["ALL /x", {}]],
    ["/a/12", ["GET /a/:id{[0-9]+}", { id: "12" }]],
    ["/a/x", null],
    ["/files/a", ["GET /files/:name/*", { name: "a" }]],
    ["/files/a/b/c", ["GET /files/:name/*", { name: "a" }]],
    ["/files//b", null],
    ["/files", null],
  ])("matches GET %j as the split-based matcher did", (path, expected) => {
    const r = router(
      ["GET", "/"],
      ["GET", "/widgets"],
      ["GET", "/widgets/new"],
      ["GET", "/widgets/:widget_id"],
      ["GET", "/widgets/:widget_id/edit"],
      ["GET", "/widgets/:widget_id/images/:image_id"],
      ["POST", "/widgets"],
      ["GET", "/:lang/about"],
      ["GET", "/assets/*"],
      ["ALL", "/x"],
      ["GET", "/a/:id{[0-9]+}"],
      ["GET", "/files/:name/*"],
    );
    // Twice: the second lookup takes the bucket remembered from the first.
    expect(first(r, "GET", path) ?? null).toEqual(expected);
    expect(first(r, "GET", path) ?? null).toEqual(expected);
  });

  it("remembers the last bucket only for the same method and the same whole first segment", () => {
    const r = router(["GET", "/w/:id"], ["POST", "/w/:id"], ["GET", "/:any/:id"]);
    expect(first(r, "GET", "/w/1")?.[0]).toBe("GET /w/:id");
    expect(first(r, "POST", "/w/1")?.[0]).toBe("POST /w/:id");
    expect(first(r, "GET", "/wx/1")?.[0]).toBe("GET /:any/:id");
    expect(first(r, "GET", "/w/2")?.[0]).toBe("GET /w/:id");
    expect(first(r, "DELETE", "/w/2")).toBeUndefined();
    r.add("DELETE", "/w/:id", "DELETE /w/:id");
    expect(first(r, "DELETE", "/w/2")?.[0]).toBe("DELETE /w/:id");
  });
});
