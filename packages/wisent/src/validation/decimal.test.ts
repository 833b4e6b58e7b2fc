import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decimal, decimalRuleOf, decimalText, storedDecimal } from "./decimal.js";
import { validate } from "./validation.js";

describe("decimalText", () => {
  it.each([
    ["16", "16.00"],
    [16, "16.00"],
    [12.5, "12.50"],
    ["12.500", "12.50"],
    ["+7", "7.00"],
    ["007.1", "7.10"],
    [".5", "0.50"],
    ["5.", "5.00"],
    ["-0", "0.00"],
    ["-0.00", "0.00"],
    ["-3.25", "-3.25"],
    ["1e3", "1000.00"],
    ["125e-2", "1.25"],
    [1e-2, "0.01"],
    [" 42 ", "42.00"],
    ["99999999.99", "99999999.99"],
  ])("decimal(10, 2) reads %j as %j", (value, text) => {
    expect(decimalText(value, 10, 2)).toEqual({ ok: true, text });
  });

  it.each([
    ["12.511", "scale"],
    [0.1 + 0.2, "scale"],
    [1e-7, "scale"],
    ["100000000", "range"],
    [1e21, "range"],
    ["many", "number"],
    ["1.2.3", "number"],
    [".", "number"],
    ["-", "number"],
    ["0x10", "number"],
    [Number.NaN, "number"],
    [Number.POSITIVE_INFINITY, "number"],
    [true, "number"],
    [{}, "number"],
  ])("decimal(10, 2) refuses %j (%s)", (value, problem) => {
    expect(decimalText(value, 10, 2)).toEqual({ ok: false, problem });
  });

  it("writes no point for a scale of 0", () => {
    expect(decimalText("12", 5, 0)).toEqual({ ok: true, text: "12" });
    expect(decimalText("12.0", 5, 0)).toEqual({ ok: true, text: "12" });
  });
});

describe("storedDecimal", () => {
  it("formats what each database returns with the column's scale", () => {
    const info = { precision: 10, scale: 2 };
    expect(storedDecimal("16.00", info)).toBe("16.00");
    expect(storedDecimal(16, info)).toBe("16.00");
    expect(storedDecimal(12.5, info)).toBe("12.50");
    expect(storedDecimal(0.30000000000000004, info)).toBe("0.30");
    expect(storedDecimal(null, info)).toBe(null);
  });
});

describe("decimal()", () => {
  const schema = z.object({
    price: decimal(10, 2),
    discount: decimal(5, 2, { default: 0 }),
    weight: decimal(6, 3, { nullable: true }),
    count: decimal(4, 0),
  });

  it("gives exact text with the scale, defaults and nulls for fields left out or blank", () => {
    expect(validate(schema, { price: 16, count: "3" })).toEqual({
      ok: true,
      data: { price: "16.00", discount: "0.00", weight: null, count: "3" },
    });
    expect(validate(schema, { price: "12.5", discount: "", weight: "1.5", count: 3 }).data).toEqual(
      { price: "12.50", discount: "0.00", weight: "1.500", count: "3" },
    );
  });

  it("names the field in each refusal", () => {
    const result = validate(schema, {
      price: "12.511",
      discount: "1000",
      weight: "many",
      count: "1.5",
    });
    expect(result.errors?.toJSON()).toEqual({
      errors: {
        price: ["Price must have at most 2 decimal places."],
        discount: ["Discount must have at most 3 digits before the decimal point."],
        weight: ["Weight is not a number."],
        count: ["Count must be a whole number."],
      },
    });
    expect(validate(schema, { count: "1" }).errors?.get("price")).toEqual([
      "Price can not be blank.",
    ]);
  });

  it("is found by the model (and OpenAPI) through the wrappers a field may have", () => {
    expect(decimalRuleOf(schema.shape.price)).toMatchObject({ precision: 10, scale: 2 });
    expect(decimalRuleOf(schema.shape.discount)).toEqual({
      precision: 5,
      scale: 2,
      fallback: "0.00",
    });
    expect(decimalRuleOf(schema.shape.weight)?.fallback).toBe(null);
    expect(decimalRuleOf(decimal(8, 3).optional())).toMatchObject({ precision: 8, scale: 3 });
    expect(decimalRuleOf(z.number())).toBeUndefined();
  });

  it("refuses an impossible size or default when the model is defined", () => {
    expect(() => decimal(2, 3)).toThrow("write 1 <= precision <= 65 and 0 <= scale <= precision");
    expect(() => decimal(4, 2, { default: "123" })).toThrow(
      'the default "123" must have at most 2 digits before the decimal point.',
    );
  });

  it("types its input as text or a number and its output as text", () => {
    type Input = z.input<typeof schema>;
    type Output = z.output<typeof schema>;
    const input: Input = { price: 1, count: "2" };
    const output: Output = { price: "1.00", discount: "0.00", weight: null, count: "2" };
    // @ts-expect-error a record's decimal is text, never a number
    const wrong: Output = { ...output, price: 1 };
    expect([input, wrong].length).toBe(2);
  });
});
