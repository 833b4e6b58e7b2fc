import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { names } from "../../naming/index.js";
import { parseAttributes } from "./attributes.js";
import { renderTemplate } from "./render.js";
import { resourcePlan } from "./resource-plan.js";

/**
 * The generated model's zod rules, run for real: the model file of a resource with every type is
 * rendered, imported, and fed form text, JSON values and blanks.
 */
const EVERY_TYPE = [
  "title",
  "body:text",
  "note:nulls.Text",
  "nick:nulls.String",
  "age:int",
  "rank:nulls.Int",
  "active:bool",
  "price:float",
  "cost:decimal{5,2}",
  "views:bigint",
  "at:timestamp",
  "opens:time",
  "on:date",
  "seen:nulls.Time",
  "ref:uuid",
  "maybe:nulls.UUID",
  "meta:json",
];

let dir: string;
let Gadget: {
  validate(input: unknown): {
    ok: boolean;
    data?: Record<string, unknown>;
    errors?: { errors: Record<string, string[]> };
  };
};

beforeAll(async () => {
  const plan = resourcePlan({
    names: names("gadget"),
    attributes: parseAttributes(EVERY_TYPE),
    api: false,
    command: "test",
    migration: new Date(0),
  });
  const model = plan.files.find((f) => f.group === "model")!;
  const source = renderTemplate(model.template, plan.data)
    .replace(
      '"wisent"',
      JSON.stringify(pathToFileURL(fileURLToPath(new URL("../../index.ts", import.meta.url))).href),
    )
    .replace('"zod"', JSON.stringify(import.meta.resolve("zod")));
  dir = mkdtempSync(join(tmpdir(), "wisent-model-"));
  writeFileSync(join(dir, "gadget.ts"), source);
  ({ Gadget } = await import(pathToFileURL(join(dir, "gadget.ts")).href));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REQUIRED = {
  title: "T",
  body: "B",
  age: "3",
  views: "5",
  at: "2024-05-01T12:30",
  opens: "09:30",
  on: "2024-05-01",
  ref: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
};

describe("generated model rules", () => {
  it("requires string, text, int, bigint, timestamp, time, date and uuid, nothing else", () => {
    const result = Gadget.validate({});
    expect(result.ok).toBe(false);
    expect(result.errors!.errors).toEqual({
      title: ["Title can not be blank."],
      body: ["Body can not be blank."],
      age: ["Age can not be blank."],
      views: ["Views can not be blank."],
      at: ["At can not be blank."],
      opens: ["Opens can not be blank."],
      on: ["On can not be blank."],
      ref: ["Ref can not be blank."],
    });
  });

  it("reads form text: numbers, a checkbox after its hidden field, datetime-local as UTC, JSON", () => {
    const result = Gadget.validate({
      ...REQUIRED,
      rank: "",
      active: ["false", "true"],
      price: "9.5",
      cost: "12.5",
      seen: "",
      maybe: "",
      meta: '{"a":1}',
      note: "",
    });
    expect(result.ok).toBe(true);
    expect(result.data).toMatchObject({
      age: 3,
      rank: null,
      active: true,
      price: 9.5,
      cost: "12.50",
      at: new Date("2024-05-01T12:30:00Z"),
      on: "2024-05-01",
      seen: null,
      opens: "09:30:00",
      maybe: null,
      meta: { a: 1 },
      nick: null,
    });
  });

  it("reads JSON values as they are, and fills the defaults of optional fields", () => {
    const result = Gadget.validate({
      ...REQUIRED,
      age: 0,
      active: false,
      at: "2024-05-01T12:30:00+02:00",
    });
    expect(result.ok).toBe(true);
    expect(result.data).toMatchObject({
      age: 0,
      active: false,
      price: 0,
      cost: "0.00",
      meta: {},
      note: null,
      maybe: null,
    });
    expect((result.data!.at as Date).toISOString()).toBe("2024-05-01T10:30:00.000Z");
  });

  it("names each bad value", () => {
    const result = Gadget.validate({
      ...REQUIRED,
      title: "   ",
      age: "x",
      at: "not a time",
      on: "May 1st",
      ref: "nope",
      meta: "{",
      nick: "n".repeat(256),
      opens: "25:00",
    });
    expect(result.errors!.errors).toEqual({
      title: ["Title can not be blank."],
      age: ["Age is invalid."],
      at: ["At is invalid."],
      on: ["On is invalid."],
      ref: ["Ref is invalid."],
      meta: ["Meta is invalid."],
      nick: ["Nick must be at most 255 characters."],
      opens: ["Opens is invalid."],
    });
  });

  it("keeps numbers to their column's range: a 422 naming the field, not a database error", () => {
    const result = Gadget.validate({
      ...REQUIRED,
      age: 2147483648,
      rank: -2147483649,
      views: 2 ** 53,
      cost: 1000,
    });
    expect(result.errors!.errors).toEqual({
      age: ["Age must be at most 2147483647."],
      rank: ["Rank must be at least -2147483648."],
      views: ["Views must be at most 9007199254740991."],
      cost: ["Cost must have at most 3 digits before the decimal point."],
    });
    const edge = Gadget.validate({
      ...REQUIRED,
      age: 2147483647,
      views: 2 ** 53 - 1,
      cost: 999.99,
    });
    expect(edge.ok).toBe(true);
    expect(edge.data?.cost).toBe("999.99");
  });
});
