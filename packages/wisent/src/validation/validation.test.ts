import { describe, expect, it } from "vitest";
import { z } from "zod";
import { humanizeField, validate } from "./validation.js";

const schema = z.object({
  title: z.string().trim().min(1),
  description: z.string().nullable().default(null),
  code: z.string().max(3),
  nick: z.string().min(3, "Nick is too short"),
  age: z.number().int().min(18),
  email: z.email(),
});

const valid = { title: "Gear", code: "ab", nick: "abc", age: 20, email: "a@b.io" };

describe("validate", () => {
  it("returns the parsed data", () => {
    expect(validate(schema, { ...valid, title: " Gear " })).toEqual({
      ok: true,
      data: { ...valid, description: null },
    });
  });

  it.each([
    [{ title: "" }, "title", "Title can not be blank."],
    [{ title: "   " }, "title", "Title can not be blank."],
    [{ title: undefined }, "title", "Title can not be blank."],
    [{ title: null }, "title", "Title can not be blank."],
    [{ title: 5 }, "title", "Title is invalid."],
    [{ code: "abcd" }, "code", "Code must be at most 3 characters."],
    [{ nick: "ab" }, "nick", "Nick is too short"],
    [{ age: 3 }, "age", "Age must be at least 18."],
    [{ email: "nope" }, "email", "Email is not a valid email address."],
  ])("maps %j to %s: %s", (change, field, message) => {
    const result = validate(schema, { ...valid, ...change });
    expect(result.ok).toBe(false);
    expect(result.errors?.toJSON()).toEqual({ errors: { [field]: [message] } });
  });

  it("collects every failing field", () => {
    const result = validate(schema, {});
    expect(Object.keys(result.errors?.errors ?? {}).sort()).toEqual([
      "age",
      "code",
      "email",
      "nick",
      "title",
    ]);
  });

  it("humanizes field names", () => {
    expect(humanizeField("first_name")).toBe("First name");
    expect(humanizeField("widget_id")).toBe("Widget");
    expect(humanizeField("createdAt")).toBe("Created at");
  });
});

describe("validate refuses text no format carries", () => {
  const schema = z.object({
    title: z.string().trim().min(1),
    meta: z.record(z.string(), z.unknown()).optional(),
  });
  it.each([
    ["NUL", "a\u0000b"],
    ["SOH", "\u0001"],
    ["vertical tab", "a\u000bb"],
    ["escape", "\u001b[31m"],
    ["DEL", "a\u007f"],
    ["a C1 control", "a\u0085b"],
    ["a lone high surrogate", "a\ud800"],
    ["a lone low surrogate", "\udc00a"],
    ["reversed surrogates", "\udc00\ud800"],
  ])("%s: 422-style error naming the field", (_name, title) => {
    const result = validate(schema, { title });
    expect(result.ok).toBe(false);
    expect(result.errors?.toJSON()).toEqual({
      errors: { title: ["Title must not contain control characters or unpaired surrogates."] },
    });
  });

  it("checks nested strings, naming their path", () => {
    const result = validate(schema, { title: "ok", meta: { note: ["fine", "bad\u0000"] } });
    expect(result.errors?.toJSON()).toEqual({
      errors: {
        "meta.note.1": ["Note must not contain control characters or unpaired surrogates."],
      },
    });
  });

  it.each([
    ["tab, newline, carriage return", "a\tb\nc\r\nd"],
    ["astral characters", "😀 𝄞"],
    ["accents and CJK", "é 中文"],
    ["U+FFFD itself", "\ufffd"],
  ])("keeps %s", (_name, title) => {
    expect(validate(schema, { title })).toEqual({ ok: true, data: { title: title.trim() } });
  });
});
