import { describe, expect, it } from "vitest";
import { parseAttributes } from "./attributes.js";
import { UsageError } from "./usage-error.js";

describe("parseAttributes", () => {
  // Buffalo's type table (reference section 5): what each spelling becomes.
  it.each([
    ["title", "string", "string", true, "string", "text"],
    ["title:string", "string", "string", true, "string", "text"],
    ["body:text", "text", "string", true, "text", "textarea"],
    ["description:nulls.Text", "nulls.Text", "string | null", false, "text", "textarea"],
    ["nick:nulls.String", "nulls.String", "string | null", false, "string", "text"],
    ["age:int", "int", "number", true, "integer", "number"],
    ["rank:nulls.Int", "nulls.Int", "number | null", false, "integer", "number"],
    ["active:bool", "bool", "boolean", false, "boolean", "checkbox"],
    ["price:float", "float", "number", false, "decimal", "decimal"],
    ["price:decimal", "decimal", "number", false, "decimal", "decimal"],
    ["at:time", "time", "Date", true, "timestamp", "datetime-local"],
    ["at:timestamp", "timestamp", "Date", true, "timestamp", "datetime-local"],
    ["on:date", "date", "string", true, "date", "date"],
    ["seen:nulls.Time", "nulls.Time", "Date | null", false, "timestamp", "datetime-local"],
    ["ref:uuid", "uuid", "string", false, "uuid", "text"],
    ["meta:json", "json", "Record<string, unknown>", false, "json", "textarea"],
  ])("%s", (arg, typeName, tsType, required, column, input) => {
    const [attr] = parseAttributes([arg]);
    expect(attr!.typeName).toBe(typeName);
    expect(attr!.type.tsType).toBe(tsType);
    expect(attr!.type.required).toBe(required);
    expect(attr!.type.column).toBe(column);
    expect(attr!.type.input).toBe(input);
  });

  it("snake-cases names and labels them as validation messages do", () => {
    expect(parseAttributes(["displayName", "user_id:uuid"]).map((a) => [a.name, a.label])).toEqual([
      ["display_name", "Display name"],
      ["user_id", "User"],
    ]);
  });

  it("reads type names case-insensitively, as Buffalo does", () => {
    expect(parseAttributes(["d:NULLS.TEXT"])[0]!.type.name).toBe("nulls.Text");
  });

  it.each([
    [[""], "an attribute argument is empty"],
    [["title", "title:text"], 'duplicate attribute "title"'],
    [["displayName", "display_name"], 'duplicate attribute "display_name"'],
    [["title:strng"], 'unknown type "strng" for attribute "title": use one of string, text,'],
    [["a:b:c"], 'attribute "a:b:c": write name or name:type (one colon)'],
    [["1st"], 'attribute "1st": the name must start with a letter'],
    [["title-x"], 'attribute "title-x": the name must start with a letter'],
    [["id"], 'attribute "id": id is a column the generator adds itself'],
    [["created_at:time"], "created_at is a column the generator adds itself"],
    [["constructor"], "constructor is a reserved name"],
  ])("refuses %j", (args, message) => {
    expect(() => parseAttributes(args)).toThrow(UsageError);
    expect(() => parseAttributes(args)).toThrow(message);
  });

  it("refuses the parent's foreign key", () => {
    expect(() => parseAttributes(["widget_id"], ["widget_id"])).toThrow(
      "widget_id is a column the generator adds itself",
    );
  });
});
