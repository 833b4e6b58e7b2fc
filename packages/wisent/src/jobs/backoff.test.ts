import { describe, expect, it } from "vitest";
import { DEFAULT_BACKOFF, retryDelayMs } from "./backoff.js";

describe("retryDelayMs", () => {
  it.each([
    [1, 0, 7_500],
    [1, 1, 15_000],
    [2, 0, 15_000],
    [3, 1, 60_000],
    [20, 1, 3_600_000],
    [20, 0, 1_800_000],
  ])("after %i failure(s), with random %d: %d ms", (failures, random, expected) => {
    expect(retryDelayMs(failures, DEFAULT_BACKOFF, () => random)).toBe(expected);
  });
});
