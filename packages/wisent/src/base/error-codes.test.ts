import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./error-codes.js";

describe("ERROR_CODES", () => {
  it("cites no code that does not exist (in its comments, meanings and fixes)", () => {
    const source = readFileSync(new URL("./error-codes.ts", import.meta.url), "utf8");
    const cited = new Set(source.match(/\bE_[A-Z][A-Z_]*\b/g));
    expect(cited.size).toBeGreaterThan(Object.keys(ERROR_CODES).length - 1);
    const missing = [...cited].filter((code) => !(code in ERROR_CODES));
    expect(missing).toEqual([]);
  });

  it("gives every status a request can answer with as an HTTP error status", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const status = (info as { status?: number }).status;
      if (status !== undefined) expect([code, status >= 400 && status < 600]).toEqual([code, true]);
    }
  });
});
