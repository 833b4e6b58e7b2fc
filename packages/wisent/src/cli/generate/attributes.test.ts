import { describe, expect, it } from "vitest";
import { names } from "../../naming/index.js";
import { parseAttributes } from "./attributes.js";
import { templateData } from "./template-data.js";
import { UsageError } from "./usage-error.js";

describe("parseAttributes", () => {
  // The type table: Buffalo's spellings with the meanings a Rails user expects.
  it.each([
    ["title", "string", "string", true, "string", "text", 't.string("title")'],
    ["title:string", "string", "string", true, "string", "text", 't.string("title")'],
    ["body:text", "text", "string", true, "text", "textarea", 't.text("body")'],
    [
      "description:nulls.Text",
      "nulls.Text",
      "string | null",
      false,
      "text",
      "textarea",
      't.text("description").nullable()',
    ],
    [
      "nick:nulls.String",
      "nulls.String",
      "string | null",
      false,
      "string",
      "text",
      't.string("nick").nullable()',
    ],
    ["age:int", "int", "number", true, "integer", "number", 't.integer("age")'],
    ["age:integer", "integer", "number", true, "integer", "number", 't.integer("age")'],
    [
      "rank:nulls.Int",
      "nulls.Int",
      "number | null",
      false,
      "integer",
      "number",
      't.integer("rank").nullable()',
    ],
    ["views:bigint", "bigint", "number", true, "bigInteger", "number", 't.bigInteger("views")'],
    ["active:bool", "bool", "boolean", false, "boolean", "checkbox", 't.boolean("active")'],
    ["price:float", "float", "number", false, "float", "decimal", 't.float("price")'],
    [
      "weight:nulls.Float",
      "nulls.Float",
      "number | null",
      false,
      "float",
      "decimal",
      't.float("weight").nullable()',
    ],
    ["price:decimal", "decimal", "string", false, "decimal", "decimal", 't.decimal("price")'],
    [
      "price:decimal{10,2}",
      "decimal{10,2}",
      "string",
      false,
      "decimal",
      "decimal",
      't.decimal("price", 10, 2)',
    ],
    [
      "price:decimal{8.3}",
      "decimal{8.3}",
      "string",
      false,
      "decimal",
      "decimal",
      't.decimal("price", 8, 3)',
    ],
    ["opens:time", "time", "string", true, "time", "time", 't.time("opens")'],
    ["at:datetime", "datetime", "Date", true, "timestamp", "datetime-local", 't.timestamp("at")'],
    ["at:timestamp", "timestamp", "Date", true, "timestamp", "datetime-local", 't.timestamp("at")'],
    ["at:time.Time", "time.Time", "Date", true, "timestamp", "datetime-local", 't.timestamp("at")'],
    ["on:date", "date", "string", true, "date", "date", 't.date("on")'],
    [
      "seen:nulls.Time",
      "nulls.Time",
      "Date | null",
      false,
      "timestamp",
      "datetime-local",
      't.timestamp("seen").nullable()',
    ],
    ["ref:uuid", "uuid", "string", true, "uuid", "text", 't.uuid("ref")'],
    [
      "ref:nulls.UUID",
      "nulls.UUID",
      "string | null",
      false,
      "uuid",
      "text",
      't.uuid("ref").nullable()',
    ],
    [
      "post:references",
      "references",
      "string",
      true,
      "references",
      "text",
      't.references("post_id", "posts")',
    ],
    [
      "blog_post:belongs_to",
      "belongs_to",
      "string",
      true,
      "references",
      "text",
      't.references("blog_post_id", "blog_posts")',
    ],
    ["meta:json", "json", "Record<string, unknown>", false, "json", "textarea", 't.json("meta")'],
  ])("%s", (arg, typeName, tsType, required, column, input, call) => {
    const [attr] = parseAttributes([arg]);
    expect(attr!.typeName).toBe(typeName);
    expect(attr!.type.tsType).toBe(tsType);
    expect(attr!.type.required).toBe(required);
    expect(attr!.type.column).toBe(column);
    expect(attr!.type.input).toBe(input);
    const data = templateData({
      names: names("gadget"),
      attributes: [attr!],
      api: false,
      command: "test",
    });
    expect(data.attrs[0]!.columnCall).toBe(call);
  });

  it("names a reference's column after its parent and labels it by the parent", () => {
    const [attr] = parseAttributes(["post:references"]);
    expect([attr!.name, attr!.label, attr!.references]).toEqual([
      "post_id",
      "Post",
      { table: "posts", model: "Post", onDelete: "restrict" },
    ]);
  });

  // Rails' modifiers (`:uniq`, `:index`) and the reference's delete rule.
  it.each([
    ["isbn:string:uniq", true, false, 't.string("isbn").unique()'],
    ["isbn:uniq", true, false, 't.string("isbn").unique()'],
    ["title:index", false, true, 't.string("title").index()'],
    ["title:text:INDEX", false, true, 't.text("title").index()'],
    ["code:nulls.String:uniq", true, false, 't.string("code").nullable().unique()'],
    ["price:decimal{10,2}:index", false, true, 't.decimal("price", 10, 2).index()'],
    ["author:references", false, false, 't.references("author_id", "authors")'],
    [
      "author:references{cascade}",
      false,
      false,
      't.references("author_id", "authors", { onDelete: "cascade" })',
    ],
    [
      "author:references{restrict}:uniq",
      true,
      false,
      't.references("author_id", "authors").unique()',
    ],
    // A foreign key is indexed already.
    [
      "author:belongs_to{CASCADE}:index",
      false,
      true,
      't.references("author_id", "authors", { onDelete: "cascade" })',
    ],
  ])("%s", (arg, unique, index, call) => {
    const [attr] = parseAttributes([arg]);
    expect([attr!.unique, attr!.index]).toEqual([unique, index]);
    const data = templateData({
      names: names("book"),
      attributes: [attr!],
      api: false,
      command: "t",
    });
    expect(data.attrs[0]!.columnCall).toBe(call);
    expect(data.uniqueFields).toEqual(unique ? [attr!.name] : []);
  });

  it("gives the model its unique fields and the tables its foreign keys point to", () => {
    const data = templateData({
      names: names("book"),
      attributes: parseAttributes(["isbn:uniq", "publisher:references", "price:decimal"]),
      parent: names("author"),
      parentOnDelete: "cascade",
      api: false,
      command: "t",
    });
    expect(data.uniqueFields).toEqual(["isbn"]);
    expect(data.referenceTables).toEqual([
      ["author_id", "authors"],
      ["publisher_id", "publishers"],
    ]);
    expect(data.parent?.referenceCall).toBe(
      't.references("author_id", "authors", { onDelete: "cascade" })',
    );
    expect(data.modelImports).toBe("decimal, defineModel, type RecordOf");
    expect(data.attrs.find((a) => a.name === "price")?.zod).toBe(
      'decimal(12, 2, { default: "0.00" })',
    );
  });

  // An owned resource's unique values are unique per user; `uniq{global}` across users.
  it.each([
    [
      "name:uniq",
      't.string("name").unique({ scope: "user_id" })',
      '{ field: "name", scope: "user_id" }',
    ],
    ["name:string:uniq{global}", 't.string("name").unique()', '"name"'],
    ["name:uniq{GLOBAL}", 't.string("name").unique()', '"name"'],
    [
      "project:references:uniq",
      't.references("project_id", "projects").unique({ scope: "user_id" })',
      '{ field: "project_id", scope: "user_id" }',
    ],
  ])("on an owned resource, %s", (arg, call, rule) => {
    const attributes = parseAttributes([arg]);
    const owned = templateData({
      names: names("book"),
      attributes,
      api: false,
      command: "t",
      access: "owned",
    });
    expect(owned.attrs[0]!.columnCall).toBe(call);
    expect(owned.uniqueRules).toEqual([rule]);
    // Elsewhere every unique value is unique across the table, uniq{global} or not.
    const shared = templateData({
      names: names("book"),
      attributes,
      api: false,
      command: "t",
      access: "shared",
    });
    expect(shared.attrs[0]!.columnCall).toMatch(/\.unique\(\)$/);
  });

  it("checks an owned resource's references to owned records through the owner", () => {
    const data = templateData({
      names: names("task"),
      attributes: parseAttributes(["project:references", "tag:references"]),
      parent: names("board"),
      api: false,
      command: "t",
      access: "owned",
      ownedReferences: new Set(["board_id", "project_id"]),
    });
    expect(data.referenceRules).toEqual([
      'board_id: { table: "boards", ownedBy: "user_id" }',
      'project_id: { table: "projects", ownedBy: "user_id" }',
      'tag_id: "tags"',
    ]);
    const shared = templateData({
      names: names("task"),
      attributes: parseAttributes(["project:references"]),
      api: false,
      command: "t",
      access: "shared",
      ownedReferences: new Set(["project_id"]),
    });
    expect(shared.referenceRules).toEqual(['project_id: "projects"']);
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
    [
      ["title:strng"],
      'unknown type "strng" for attribute "title" (did you mean "string"?): use one of string, text,',
    ],
    [["n:Intger"], 'unknown type "Intger" for attribute "n" (did you mean "integer"?)'],
    [["n:refrences"], '(did you mean "references"?)'],
    [["n:wibble"], 'unknown type "wibble" for attribute "n": use one of'],
    [["p:decimal{2,5}"], 'attribute "p": decimal{2,5}: write decimal{precision,scale}'],
    // What bash makes of an unquoted price:decimal{10,2}.
    [
      ["title", "price:decimal10", "price:decimal2"],
      `unknown type "decimal10" for attribute "price": the shell expanded the braces of price:decimal{10,2} into two words before wisent saw it; quote it ('price:decimal{10,2}') or write price:decimal{10.2}`,
    ],
    [["post:references", "post_id"], 'duplicate attribute "post_id"'],
    [["a:b:c"], 'attribute "a:b:c": unknown modifier "c" (use uniq or index)'],
    [["meta:json:uniq"], 'attribute "meta:json:uniq": a JSON column cannot be indexed'],
    [["meta:jsonb:index"], "(PostgreSQL and MySQL index no JSON): drop :index"],
    [["cover:attachment:uniq"], "a file field is a JSON column, which cannot be indexed"],
    [["active:bool:uniq"], "a unique boolean lets at most two records exist"],
    [
      ["a:string:uniq:index"],
      'attribute "a:string:uniq:index": write name, name:type or name:type:modifier',
    ],
    [["a:references{nullify}"], 'unknown reference option "nullify" (use {cascade}'],
    [
      ["a:string:uniq{local}"],
      'attribute "a:string:uniq{local}": unknown uniq option "local" (use uniq{global}',
    ],
    [
      ["a:string:index{global}"],
      'attribute "a:string:index{global}": index takes no option in braces',
    ],
    [["a:string{cascade}"], 'unknown type "string{cascade}"'],
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
