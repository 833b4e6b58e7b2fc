import { describe, expect, it } from "vitest";
import { isUuid, uuidKey, uuidv7 } from "./uuid.js";

describe("uuidv7", () => {
  it("is a version 7, variant 10 UUID carrying the time", () => {
    const id = uuidv7(Date.UTC(2024, 4, 1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(
      Date.UTC(2024, 4, 1),
    );
  });

  it("sorts in creation order, within one millisecond too", () => {
    const at = Date.UTC(2030, 0, 1);
    const ids = Array.from({ length: 5000 }, () => uuidv7(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws fresh random bits for every id, across refills of its random pool", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => uuidv7(Date.UTC(2031, 0, 1) + i));
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it("recognises canonical UUIDs only", () => {
    expect(isUuid(uuidv7())).toBe(true);
    expect(isUuid("0190A6D2-7B3C-7A01-9F3E-5C1D2E3F4A5B")).toBe(true);
    for (const bad of [
      "",
      "1",
      "0190a6d27b3c7a019f3e5c1d2e3f4a5b",
      "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5",
      42,
    ]) {
      expect(isUuid(bad)).toBe(false);
    }
  });

  it("gives the stored (lower-case) key of a UUID, agreeing with isUuid on every character", () => {
    expect(uuidKey("0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b")).toBe(
      "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b",
    );
    expect(uuidKey("0190A6D2-7B3C-7A01-9F3E-5C1D2E3F4A5B")).toBe(
      "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b",
    );
    const base = "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b";
    // Every printable ASCII character at every position: a key exactly when isUuid says so.
    for (let at = 0; at < base.length; at++) {
      for (let code = 32; code < 127; code++) {
        const text = base.slice(0, at) + String.fromCharCode(code) + base.slice(at + 1);
        expect(uuidKey(text) !== undefined).toBe(isUuid(text));
      }
    }
    for (const bad of ["", base.slice(1), `${base}0`, base.replaceAll("-", "")]) {
      expect(uuidKey(bad)).toBeUndefined();
    }
  });
});
