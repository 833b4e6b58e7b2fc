import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type GeneratedRecords,
  RECORD_FILE,
  readRecords,
  writeRecords,
} from "./generated-record.js";

const BIOME = new URL("../../../../../node_modules/@biomejs/biome/bin/biome", import.meta.url)
  .pathname;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the generated record", () => {
  it("is written as Biome lays JSON out (short lists inline, long ones one per line)", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-record-"));
    dirs.push(dir);
    const long = [
      "src/models/widget.ts",
      "migrations/20240501123000_create_widgets.ts",
      "src/models/widget.test.ts",
    ];
    writeRecords(dir, {
      widgets: {
        name: "widget",
        attributes: ["title", "description:nulls.Text"],
        migration: "x.ts",
        files: {},
        uses: long,
      },
    });
    const text = readFileSync(join(dir, RECORD_FILE), "utf8");
    expect(text).toContain('    "attributes": ["title", "description:nulls.Text"],\n');
    expect(text).toContain(
      `    "uses": [\n      "${long[0]}",\n      "${long[1]}",\n      "${long[2]}"\n    ]\n`,
    );
    expect(readRecords(dir).widgets!.uses).toEqual(long);
    writeRecords(dir, {});
    expect(readRecords(dir)).toEqual({});
  });

  it("keeps a short list inline when its values hold braces (uniq{global}, references{cascade})", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-record-"));
    dirs.push(dir);
    const attributes = ["code:string:uniq{global}", "author:references{cascade}"];
    writeRecords(dir, { posts: { name: "post", attributes, migration: "x.ts", files: {} } });
    expect(readFileSync(join(dir, RECORD_FILE), "utf8")).toContain(
      '    "attributes": ["code:string:uniq{global}", "author:references{cascade}"],\n',
    );
  });

  it("breaks a list that fits the line width only without the comma after it", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-record-"));
    dirs.push(dir);
    // 101 characters with the comma, which Biome counts: one too many.
    const attributes = [
      "isbn:string:uniq",
      "title:index",
      "price:decimal{12,2}",
      "publisher:references",
    ];
    writeRecords(dir, { books: { name: "book", attributes, migration: "x.ts", files: {} } });
    const text = readFileSync(join(dir, RECORD_FILE), "utf8");
    expect(text).toContain('    "attributes": [\n      "isbn:string:uniq",\n');
  });

  it("is what Biome would print, for lists with braces, brackets and commas in their values", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-record-"));
    dirs.push(dir);
    // The biome.json of an app made by `wisent new` (its line width is the record's).
    writeFileSync(
      join(dir, "biome.json"),
      JSON.stringify({ formatter: { indentStyle: "space", indentWidth: 2, lineWidth: 100 } }),
    );
    const records: GeneratedRecords = {
      books: {
        name: "book",
        attributes: ["title", "isbn:uniq", "price:decimal{10,2}", "cover:attachment"],
        parent: "author",
        access: "owned",
        migration: "20240501123000_create_books.ts",
        files: { "src/models/book.ts": "0".repeat(64) },
        member: ["publish:post", "tag[x]:put"],
      },
      // 101 characters with its comma: one value per line.
      edge: {
        name: "edge",
        attributes: ["a".repeat(30), "b".repeat(30), "c".repeat(10)],
        migration: "x.ts",
        files: {},
      },
      // 100 characters, the last member: on one line.
      fits: {
        name: "fits",
        migration: "x.ts",
        files: {},
        attributes: ["a".repeat(30), "b".repeat(30), "c".repeat(10)],
      },
    };
    writeRecords(dir, records);
    const written = readFileSync(join(dir, RECORD_FILE), "utf8");
    const formatted = execFileSync(BIOME, ["format", `--stdin-file-path=${RECORD_FILE}`], {
      cwd: dir,
      input: written,
      encoding: "utf8",
    });
    expect(written).toBe(formatted);
    expect(written).toContain('"price:decimal{10,2}", "cover:attachment"],\n');
  });

  it("writes a long attribute list with braces (decimal{8,3}) without backtracking for ever", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-record-"));
    dirs.push(dir);
    const attributes = [
      ...Array.from({ length: 20 }, (_, i) => `field_${i}:int`),
      "cost:decimal{8,3}",
    ];
    writeRecords(dir, { posts: { name: "post", attributes, migration: "x.ts", files: {} } });
    expect(readRecords(dir).posts!.attributes).toEqual(attributes);
  });
});
