import { describe, expect, it } from "vitest";
import { fillRandom } from "./random-bytes.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("fillRandom", () => {
  it("gives fresh bytes on every call, across refills of its pool", () => {
    const seen = new Set<string>();
    // 600 x 16 bytes crosses the 4 KiB pool twice.
    for (let i = 0; i < 600; i++) {
      const bytes = new Uint8Array(16);
      fillRandom(bytes);
      seen.add(hex(bytes));
    }
    expect(seen.size).toBe(600);
  });

  it("fills only the first `length` bytes, and more than the pool holds", () => {
    const part = new Uint8Array(32);
    fillRandom(part, 16);
    expect(part.subarray(16).every((b) => b === 0)).toBe(true);
    expect(part.subarray(0, 16).some((b) => b !== 0)).toBe(true);
    const large = new Uint8Array(10_000);
    fillRandom(large);
    expect(new Set(large).size).toBeGreaterThan(200);
  });
});
