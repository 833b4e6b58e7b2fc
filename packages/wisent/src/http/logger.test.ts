import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runModule } from "../app/test-support/run-module.js";
import {
  batchedLines,
  defaultLogger,
  isoTime,
  jsonLine,
  jsonLinesOf,
  jsonLogger,
  silentLogger,
} from "./logger.js";

const sink = () => {
  const writes: string[] = [];
  return { writes, write: (line: string) => writes.push(line) };
};

describe("jsonLogger", () => {
  it("writes one JSON line per entry: time and level first, then the entry's fields", () => {
    const out = sink();
    const err = sink();
    const logger = jsonLogger(out, err);
    logger.info({ msg: "GET /widgets 200", status: 200, params: { page: "2" } });
    logger.error({ msg: "boom" });
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0]!.endsWith("}\n")).toBe(true);
    const entry = JSON.parse(out.writes[0]!);
    expect(Object.keys(entry)).toEqual(["time", "level", "msg", "status", "params"]);
    expect(entry).toMatchObject({ level: "info", msg: "GET /widgets 200", params: { page: "2" } });
    expect(Date.parse(entry.time)).not.toBeNaN();
    expect(JSON.parse(err.writes[0]!)).toMatchObject({ level: "error", msg: "boom" });
  });
});

describe("jsonLine", () => {
  it("frames the fields of every JSON line: the time, the level, the fields, a newline", () => {
    const line = jsonLine("warn", '"msg":"slow query","ms":120');
    expect(line).toMatch(/^\{"time":"[^"]+","level":"warn","msg":"slow query","ms":120\}\n$/);
    const entry = JSON.parse(line);
    expect(entry.time).toBe(new Date(Date.parse(entry.time)).toISOString());
  });

  it("is the line jsonLogger writes, given JSON.stringify's fields of the entry", () => {
    const out = sink();
    const entry = { msg: "GET /widgets 200", status: 200, params: { q: 'a "b"' } };
    jsonLogger(out, out).info(entry);
    // The two lines differ at most in the millisecond they read.
    const time = /"time":"[^"]+"/;
    const expected = jsonLine("info", JSON.stringify(entry).slice(1, -1));
    expect(out.writes[0]!.replace(time, "")).toBe(expected.replace(time, ""));
  });
});

describe("batchedLines", () => {
  it("hands a turn's lines to the sink in one write, in order", async () => {
    const out = sink();
    const lines = batchedLines(out);
    lines.write("a\n");
    lines.write("b\n");
    expect(out.writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual(["a\nb\n"]);
    lines.write("c\n");
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("writes at once past the size limit", () => {
    const out = sink();
    const lines = batchedLines(out, 8);
    lines.write("1234\n");
    expect(out.writes).toEqual([]);
    lines.write("5678\n");
    expect(out.writes).toEqual(["1234\n5678\n"]);
  });

  it("writes what is left when the process exits", () => {
    const logger = fileURLToPath(new URL("./logger.ts", import.meta.url));
    const script = `
      const { batchedLines, jsonLogger } = await import(${JSON.stringify(logger)});
      const log = jsonLogger(batchedLines(process.stdout));
      log.info({ msg: "first" });
      log.info({ msg: "last" });
      process.exit(0);
    `;
    const messages = runModule(script)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).msg);
    expect(messages).toEqual(["first", "last"]);
  });
});

describe("isoTime", () => {
  it("is toISOString of the time, made again whenever the millisecond changes", () => {
    const times = [0, 1, 1, 999, 1000, Date.UTC(2026, 10, 23, 6, 52, 0, 7), 253_402_300_799_999];
    for (const time of [...times, ...times.reverse()]) {
      expect(isoTime(time)).toBe(new Date(time).toISOString());
    }
    // Outside the years 0000-9999 Date's own formatting answers.
    expect(isoTime(253_402_300_800_000)).toBe(new Date(253_402_300_800_000).toISOString());
    expect(isoTime(-62_198_755_200_001)).toBe(new Date(-62_198_755_200_001).toISOString());
  });
});

describe("jsonLinesOf", () => {
  it("gives a jsonLogger's sinks while its info and error are its own", () => {
    const out = sink();
    const err = sink();
    const logger = jsonLogger(out, err);
    expect(jsonLinesOf(logger)).toEqual({ out, err, info: logger.info, error: logger.error });
    expect(jsonLinesOf({ ...logger })).toBeUndefined();
    expect(jsonLinesOf({ ...logger, info() {} })).toBeUndefined();
    expect(jsonLinesOf(silentLogger)).toBeUndefined();
    expect(jsonLinesOf(defaultLogger("test"))).toBeUndefined();
    logger.error = () => {};
    expect(jsonLinesOf(logger)).toBeUndefined();
  });
});
