import { describe, expect, it } from "vitest";
import { readOnce } from "./read-once.js";

describe("readOnce", () => {
  it("reads on the first call only, an undefined answer too", () => {
    let reads = 0;
    const reader = readOnce(() => {
      reads++;
      return undefined;
    });
    expect(reader()).toBeUndefined();
    expect(reader()).toBeUndefined();
    expect(reads).toBe(1);
  });

  it("reads again after a read that threw", () => {
    let reads = 0;
    const reader = readOnce(() => {
      reads++;
      if (reads === 1) throw new Error("malformed");
      return reads;
    });
    expect(() => reader()).toThrow("malformed");
    expect(reader()).toBe(2);
    expect(reader()).toBe(2);
  });
});
