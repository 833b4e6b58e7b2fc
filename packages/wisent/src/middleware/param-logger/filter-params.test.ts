import { describe, expect, it } from "vitest";
import { HOSTILE_STRINGS } from "../../http/test-support/hostile-strings.js";
import {
  FILTERED_KEY_PARTS,
  filteredParamsJson,
  filterHeaders,
  filterParams,
} from "./filter-params.js";

const inherited = Object.create({ inheritedKey: "not own" }) as Record<string, unknown>;
inherited.own = "own";

const hidden: Record<string, unknown> = { shown: "a" };
Object.defineProperty(hidden, "hidden", { value: "not enumerable", enumerable: false });

let deep: unknown = { password: "hunter2", leaf: "x" };
for (let i = 0; i < 40; i++) deep = i % 2 ? { a: deep } : [deep];

// Every kind of value a parameter object can hold (query strings, path parameters, urlencoded,
// multipart, JSON and XML bodies) and some it cannot, as keys and as values.
const CASES: [string, unknown][] = [
  ["empty", {}],
  ["a path parameter", { widget_id: "0190f5a2-7b1c-7cde-8f00-1234567890ab" }],
  ["query and path", { page: "2", per_page: "20", widget_id: "7" }],
  ["repeated query keys (arrays)", { tag: ["a", "b", "c"], page: "1" }],
  ["filtered keys", { password: "x", apiToken: "y", "user[password]": "z", title: "t" }],
  ["filtered keys with odd values", { password: undefined, secret: null, token: ["a"], cvc: {} }],
  ["hostile strings as values", Object.fromEntries(HOSTILE_STRINGS.map((s, i) => [`k${i}`, s]))],
  ["hostile strings as keys", Object.fromEntries(HOSTILE_STRINGS.map((s, i) => [s, `v${i}`]))],
  [
    "hostile strings in arrays",
    { list: HOSTILE_STRINGS, nested: [[HOSTILE_STRINGS.slice(0, 5)], [], [[[]]]] },
  ],
  [
    "numbers",
    {
      a: 0.1,
      b: 1e21,
      c: Number.NaN,
      d: Number.POSITIVE_INFINITY,
      e: -0,
      f: 2 ** 53 + 1,
      g: 5e-324,
      h: [0.1, 1e21, Number.NaN],
    },
  ],
  ["booleans and null", { a: true, b: false, c: null, d: [null, true] }],
  [
    "what JSON leaves out",
    { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1, Symbol("s")], e: "kept" },
  ],
  ["integer-like keys (JavaScript orders them first)", { b: "1", 2: "x", 1: "y", "01": "z" }],
  [
    "nested objects with filtered keys",
    { user: { name: "a", password: "x", cards: [{ credit_card: "4111", cvc: "1" }] } },
  ],
  ["a JSON body's own __proto__ member", JSON.parse('{"a":"1","__proto__":{"password":"x"}}')],
  ["a JSON body's own __proto__ string", JSON.parse('{"__proto__":"x","b":"2"}')],
  ["a toJSON member", { a: "1", toJSON: () => ({ replaced: true }) }],
  ["a toJSON string member", { toJSON: "not a function", a: "1" }],
  ["a Date", { at: new Date(0), list: [new Date(0)] }],
  ["a file", { upload: new File(["abc"], 'a "quoted".txt', { type: "text/plain" }) }],
  ["inherited enumerable keys", inherited],
  ["non-enumerable keys", hidden],
  ["a null-prototype object", Object.assign(Object.create(null), { a: "1", password: "x" })],
  ["deeper than 32 levels", { deep }],
  ["a very long key", { ["k".repeat(10_000)]: "v", ['"'.repeat(1000)]: "w" }],
  ["many keys", Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field_${i}`, `${i}`]))],
  ["an array at the top", ["a", { password: "x" }]],
  ["a string at the top", "text"],
  ["null at the top", null],
  ["undefined at the top", undefined],
  ["a file at the top", new File(["abc"], "a.txt")],
  ["a Date at the top", new Date(0)],
];

describe("filteredParamsJson", () => {
  it.each(CASES)("equals JSON.stringify(filterParams(...)) for %s", (_name, params) => {
    expect(filteredParamsJson(params)).toBe(JSON.stringify(filterParams(params)));
    const parts = [...FILTERED_KEY_PARTS, "title", "k1"];
    expect(filteredParamsJson(params, parts)).toBe(JSON.stringify(filterParams(params, parts)));
    expect(filteredParamsJson(params, [])).toBe(JSON.stringify(filterParams(params, [])));
  });

  it("gives the same answer for a key however many distinct keys came before", () => {
    filteredParamsJson(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`x${i}`, "v"])));
    expect(filteredParamsJson({ x2999: "v", new_password: "x", 'a"b': "c" })).toBe(
      '{"x2999":"v","new_password":"[FILTERED]","a\\"b":"c"}',
    );
  });
});

describe("Rails' filter list, by substring at any depth", () => {
  const SECRET = "s3cr3t-value";
  it.each([
    "password",
    "passwd",
    "pwd",
    "new_password_confirmation",
    "api_key",
    "apiKey",
    "apikey",
    "private_key",
    "privateKey",
    "otp",
    "otp_attempt",
    "ssn",
    "salt",
    "cvv",
    "cvc",
    "email",
    "user[email]",
    "encrypted_data",
    "certificate",
    "client_secret",
    "access_token",
    "authenticity_token",
    "Authorization",
  ])("filters %s at the top, nested in objects and in arrays", (key) => {
    const params = {
      [key]: SECRET,
      user: { profile: { [key]: SECRET } },
      list: [{ [key]: SECRET }],
    };
    expect(JSON.stringify(filterParams(params))).not.toContain(SECRET);
    expect(filteredParamsJson(params)).not.toContain(SECRET);
  });

  it.each(["title", "description", "page", "per_page", "widget_id", "caption"])(
    "keeps %s",
    (key) => {
      expect(filterParams({ [key]: "v" })).toEqual({ [key]: "v" });
    },
  );

  it("filters Authorization, Cookie, Set-Cookie and headers naming a filtered part", () => {
    const headers = new Headers({
      authorization: "Bearer abc",
      cookie: "_shop_session=abc",
      "set-cookie": "a=b",
      "x-api-key": "abc",
      "x-csrf-token": "abc",
      accept: "text/html",
    });
    expect(filterHeaders(headers)).toEqual({
      authorization: "[FILTERED]",
      cookie: "[FILTERED]",
      "set-cookie": "[FILTERED]",
      "x-api-key": "[FILTERED]",
      "x-csrf-token": "[FILTERED]",
      accept: "text/html",
    });
  });
});
