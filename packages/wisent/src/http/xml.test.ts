import { describe, expect, it } from "vitest";
import { HttpError } from "./http-error.js";
import { ValidationErrors } from "./validation-errors.js";
import { parseXml, toXml } from "./xml.js";

describe("toXml", () => {
  it("renders one record with JSON names and nil for null", () => {
    expect(toXml({ id: 1, title: "a & b", description: null }, "widget")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<widget>\n  <id>1</id>\n  <title>a &amp; b</title>\n  <description nil="true"/>\n</widget>\n',
    );
  });

  it("wraps lists in the plural", () => {
    const xml = toXml([{ id: 1 }, { id: 2 }], "widget");
    expect(xml).toContain(
      "<widgets>\n  <widget>\n    <id>1</id>\n  </widget>\n  <widget>\n    <id>2</id>",
    );
    expect(xml.trim().endsWith("</widgets>")).toBe(true);
  });

  it("renders an empty list as an empty wrapper", () => {
    expect(toXml([], "widget")).toContain("<widgets");
  });

  it("renders dates as ISO strings and nested lists by singular names", () => {
    const xml = toXml({ at: new Date("2024-01-02T03:04:05Z"), tags: ["x", "y"] }, "widget");
    expect(xml).toContain("<at>2024-01-02T03:04:05.000Z</at>");
    expect(xml).toContain("<tags>\n    <tag>x</tag>\n    <tag>y</tag>\n  </tags>");
  });

  it("renders validation errors as <error field>", () => {
    const errors = new ValidationErrors({ title: ["Title can not be blank.", "Title is short."] });
    expect(toXml(errors, "widget")).toContain(
      '<errors>\n  <error field="title">Title can not be blank.</error>\n  <error field="title">Title is short.</error>\n</errors>',
    );
  });
});

describe("parseXml", () => {
  it("reads the root's children as fields, nil as null", () => {
    expect(parseXml('<widget><title>a</title><description nil="true"/></widget>')).toEqual({
      title: "a",
      description: null,
    });
  });

  it("refuses malformed XML with a 400 naming the line", () => {
    const error = (() => {
      try {
        parseXml("<widget>\n<title>a</widget>");
      } catch (err) {
        return err as HttpError;
      }
    })();
    expect(error).toBeInstanceOf(HttpError);
    expect(error?.status).toBe(400);
    expect(error?.message).toMatch(/^malformed XML body \(line 2\): /);
  });
});
