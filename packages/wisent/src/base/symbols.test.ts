import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as symbols from "./symbols.js";
import { ownSources, SRC } from "./test-support/own-sources.js";

describe("the private keys", () => {
  it("are made only in src/base/symbols.ts", () => {
    const makers = ownSources().filter(
      (file) =>
        file !== join("base", "symbols.ts") &&
        /Symbol(\.for)?\(\s*["'`]wisent\./.test(readFileSync(join(SRC, file), "utf8")),
    );
    expect(makers).toEqual([]);
  });

  it("each have a description of their own", () => {
    const descriptions = Object.values(symbols).map((key) => key.description);
    expect(descriptions.every((d) => d?.startsWith("wisent."))).toBe(true);
    expect(new Set(descriptions).size).toBe(descriptions.length);
  });

  it("finds the sources it checks (the check itself works)", () => {
    expect(ownSources()).toContain(join("kernel", "compose.ts"));
    expect(ownSources()).not.toContain(join("base", "symbols.test.ts"));
  });
});
