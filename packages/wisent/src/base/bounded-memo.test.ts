import { describe, expect, it } from "vitest";
import { BoundedMemo } from "./bounded-memo.js";

describe("BoundedMemo", () => {
  it("computes each key's answer once, undefined answers included", () => {
    const memo = new BoundedMemo<string, string | undefined>(10);
    const calls: string[] = [];
    const compute = (key: string) => {
      calls.push(key);
      return key === "none" ? undefined : key.toUpperCase();
    };
    expect([memo.get("a", compute), memo.get("a", compute)]).toEqual(["A", "A"]);
    expect([memo.get("none", compute), memo.get("none", compute)]).toEqual([undefined, undefined]);
    expect(calls).toEqual(["a", "none"]);
  });

  it("keeps at most `max` answers, forgetting the oldest first", () => {
    const memo = new BoundedMemo<number, number>(3);
    const calls: number[] = [];
    const compute = (key: number) => {
      calls.push(key);
      return key * 2;
    };
    for (const key of [1, 2, 3, 4]) memo.get(key, compute);
    memo.get(4, compute);
    memo.get(2, compute);
    memo.get(1, compute);
    expect(calls).toEqual([1, 2, 3, 4, 1]);
  });
});
