import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ownSources, SRC } from "./test-support/own-sources.js";

/** A plain error made in code (not in a comment or a string written to a file). */
const PLAIN = /^(?!\s*(?:\*|\/\/)).*\bnew (?:Type)?Error\(/;
/** The one plain error that is not Wisent's: a thrown non-Error wrapped to be answered. */
const WRAPPED = /instanceof Error \? \w+ : new Error\(String\(/;

describe("errors a user can reach", () => {
  it("are coded WisentErrors: a plain Error or TypeError says, in a comment just above, why no user reaches it", () => {
    const unexplained = ownSources().flatMap((file) => {
      const lines = readFileSync(join(SRC, file), "utf8").split("\n");
      return lines.flatMap((line, i) => {
        if (!PLAIN.test(line) || WRAPPED.test(line) || /`throw new Error\(/.test(line)) return [];
        const above = lines.slice(Math.max(0, i - 3), i);
        return above.some((l) => /^\s*\/\/ /.test(l)) ? [] : [`${file}:${i + 1}: ${line.trim()}`];
      });
    });
    expect(unexplained).toEqual([]);
  });
});
