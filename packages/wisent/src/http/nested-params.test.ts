import { describe, expect, it } from "vitest";
import { isHttpError } from "../base/http-error.js";
import { nestParams, splitParamName } from "./nested-params.js";

const bind = (query: string, limits?: { depth: number; count: number }) =>
  nestParams(new URLSearchParams(query).entries(), limits);

/** [query, bound] in the conventions of `qs` and Rack. */
const CASES: [string, Record<string, unknown>][] = [
  ["title=Gear", { title: "Gear" }],
  ["tag=x&tag=y", { tag: ["x", "y"] }],
  ["tags[]=x", { tags: ["x"] }],
  ["tags[]=x&tags[]=y", { tags: ["x", "y"] }],
  ["title=x&title=y&title[]=z", { title: ["x", "y", "z"] }],
  ["widget[title]=Gear&widget[price]=2", { widget: { title: "Gear", price: "2" } }],
  ["a[b][c]=d", { a: { b: { c: "d" } } }],
  ["a[b][c][]=1&a[b][c][]=2", { a: { b: { c: ["1", "2"] } } }],
  ["items[0][name]=bolt&items[1][name]=nut", { items: [{ name: "bolt" }, { name: "nut" }] }],
  ["items[1][name]=nut&items[0][name]=bolt", { items: [{ name: "bolt" }, { name: "nut" }] }],
  ["a[1]=x&a[5]=y", { a: ["x", "y"] }],
  ["a[0]=x&a[b]=y", { a: { 0: "x", b: "y" } }],
  ["items[][n]=1&items[][q]=2&items[][n]=3", { items: [{ n: "1", q: "2" }, { n: "3" }] }],
  ["a[b=c", { "a[b": "c" }],
  ["a]=c", { "a]": "c" }],
  ["a[b]c=d", { "a[b]c": "d" }],
  ["_method=PUT&x=1", { _method: "PUT", x: "1" }],
];

function rejection(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (isHttpError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a 400");
}

describe("nested params", () => {
  it.each(CASES)("%s", (query, expected) => {
    expect(bind(query)).toEqual(expected);
  });

  it("splits names into segments", () => {
    expect(splitParamName("a[b][]")).toEqual(["a", "b", ""]);
    expect(splitParamName("[a]")).toEqual(["[a]"]);
  });

  it("leaves the skipped names out and keeps Files as values", () => {
    const file = new File(["x"], "x.txt");
    const bound = nestParams(
      [
        ["_method", "PUT"],
        ["widget[photo]", file],
      ],
      undefined,
      new Set(["_method"]),
    );
    expect(bound).toEqual({ widget: { photo: file } });
    expect((bound.widget as { photo: unknown }).photo).toBe(file);
  });

  it.each([
    ["a[__proto__][polluted]=1", '"a[__proto__][polluted]" uses the reserved name "__proto__"'],
    ["__proto__[polluted]=1", '"__proto__[polluted]" uses the reserved name "__proto__"'],
    ["a[constructor][prototype][x]=1", 'uses the reserved name "constructor"'],
    ["prototype=1", 'uses the reserved name "prototype"'],
  ])("refuses prototype keys: %s", (query, message) => {
    const error = rejection(() => bind(query));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses names nested beyond the depth limit, naming them", () => {
    expect(bind("a[b][c]=1", { depth: 2, count: 10 })).toEqual({ a: { b: { c: "1" } } });
    expect(rejection(() => bind("a[b][c][d]=1", { depth: 2, count: 10 }))).toEqual({
      status: 400,
      message: 'parameter "a[b][c][d]" is nested 3 levels deep; the limit is 2',
    });
    const deep = `${"a".concat("[x]".repeat(11))}=1`;
    expect(rejection(() => bind(deep)).message).toMatch(
      /is nested 11 levels deep; the limit is 10$/,
    );
  });

  it("refuses more parameters than the count limit", () => {
    const query = Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join("&");
    expect(Object.keys(bind(query.split("&").slice(0, 1000).join("&")))).toHaveLength(1000);
    expect(rejection(() => bind(query))).toEqual({
      status: 400,
      message: "too many parameters: the limit is 1000",
    });
  });

  it.each([
    ["a=1&a[b]=2", '"a[b]" mixes a list, an object or a value under one name'],
    ["a[b]=2&a=1", '"a" gives a value where other parameters give an object'],
    ["a[]=1&a[b]=2", '"a[b]" mixes a list, an object or a value under one name'],
    ["a[b]=1&a[]=2", '"a[]" mixes a list, an object or a value under one name'],
  ])("refuses one name used as a value, a list and an object: %s", (query, message) => {
    const error = rejection(() => bind(query));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`parameter ${message}`);
  });
});
