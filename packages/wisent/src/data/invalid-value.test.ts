import { describe, expect, it } from "vitest";
import { isInvalidDatabaseValue } from "./invalid-value.js";

const withCode = (code: string) => Object.assign(new Error("x"), { code });

describe("isInvalidDatabaseValue", () => {
  it.each([
    ["22021", "a NUL byte in PostgreSQL text"],
    ["22001", "a string longer than its varchar"],
    ["22003", "a number out of range"],
    ["22P02", "invalid text representation"],
    ["22007", "a malformed date"],
    ["ER_DATA_TOO_LONG", "MySQL's too long"],
    ["SQLITE_TOOBIG", "SQLite's too big"],
  ])("is true for %s (%s)", (code) => {
    expect(isInvalidDatabaseValue(withCode(code))).toBe(true);
  });

  it.each([["23505"], ["42601"], ["08006"], ["ECONNREFUSED"], ["SQLITE_CONSTRAINT"], ["2200"]])(
    "is false for %s",
    (code) => {
      expect(isInvalidDatabaseValue(withCode(code))).toBe(false);
    },
  );

  it("is false for non-errors", () => {
    expect(isInvalidDatabaseValue("22021")).toBe(false);
    expect(isInvalidDatabaseValue(null)).toBe(false);
  });
});
