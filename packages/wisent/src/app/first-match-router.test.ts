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
});
