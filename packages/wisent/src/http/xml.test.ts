import { describe, expect, it } from "vitest";
import { HttpError } from "../base/http-error.js";
import { ValidationErrors } from "../validation/validation-errors.js";
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

describe("parseXml with documents the validator passes but the parser refuses", () => {
  it.each([
    [
      "an external entity",
      '<?xml version="1.0"?><!DOCTYPE w [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w><title>&xxe;</title></w>',
    ],
    ["nesting beyond the parser's limit", `<w>${"<a>".repeat(5000)}x${"</a>".repeat(5000)}</w>`],
  ])("answers 400 for %s", (_, text) => {
    let caught: unknown;
    try {
      parseXml(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HttpError);
    expect((caught as HttpError).status).toBe(400);
    expect((caught as HttpError).message).toMatch(/^malformed XML body: /);
  });

  it("leaves entity expansion (billion laughs) unexpanded", () => {
    const text = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><w><title>&c;</title></w>`;
    expect(parseXml(text)).toEqual({ title: "&c;" });
  });
});
