import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { onceOnly } from "./dev-server.js";
import { describeStartFailure } from "./start-failure.js";

const app = mkdtempSync(join(tmpdir(), "wisent-start-failure-"));
mkdirSync(join(app, "src"));
writeFileSync(
  join(app, "src/page.tsx"),
  ["a", "b", "c", "<h1>x</h2>", "d", "e", "f", "g"].join("\n"),
);
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe("describeStartFailure", () => {
  it("reads esbuild's located errors (tsx's TransformError), with the lines around", () => {
    const error = new Error(
      `Transform failed with 1 error:\n${app}/src/page.tsx:4:6: ERROR: Unexpected closing "h2" tag does not match opening "h1" tag`,
    );
    error.name = "TransformError";
    const failure = describeStartFailure(error, app);
    expect(failure.summary).toBe(
      'error: the app did not start: src/page.tsx:4:7: Unexpected closing "h2" tag does not match opening "h1" tag',
    );
    expect(failure.problems[0]?.excerpt).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
      [4, "<h1>x</h2>"],
      [5, "d"],
      [6, "e"],
      [7, "f"],
    ]);
  });

  it("places any other error at its first frame in the app's own files", () => {
    const error = new TypeError("db.check is not a function");
    error.stack = `TypeError: db.check is not a function\n    at run (${app}/node_modules/x/index.js:1:1)\n    at file://${app}/src/page.tsx:2:9`;
    const failure = describeStartFailure(error, app);
    expect(failure.problems[0]).toMatchObject({
      file: "src/page.tsx",
      line: 2,
      column: 9,
      message: "TypeError: db.check is not a function",
    });
  });

  it("says what it can when no place is known", () => {
    expect(describeStartFailure("boom", app).summary).toBe("error: the app did not start: boom");
  });
});

describe("onceOnly", () => {
  it("passes a warning the first time only, JSON or readable, and everything else always", () => {
    const seen = new Set<string>();
    const first = '{"time":"2026-01-01T00:00:00.000Z","level":"warn","msg":"careful"}\nGET / 200\n';
    const again = '{"time":"2026-01-01T00:00:09.000Z","level":"warn","msg":"careful"}\nGET / 200\n';
    expect(onceOnly(first, seen)).toBe(first);
    expect(onceOnly(again, seen)).toBe("GET / 200\n");
    expect(onceOnly("\u001b[33mwarning:\u001b[39m careful\n", seen)).toBe(
      "\u001b[33mwarning:\u001b[39m careful\n",
    );
    expect(onceOnly("warning: careful\n", seen)).toBe("");
  });
});
