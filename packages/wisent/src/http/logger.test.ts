import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runModule } from "../app/test-support/run-module.js";
import { batchedLines, jsonLogger } from "./logger.js";

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
