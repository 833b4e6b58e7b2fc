import { describe, expect, it } from "vitest";
import { arrows, floorOf, roomOf } from "./arrows.mjs";

describe("the arrows between the rooms of packages/wisent/src", () => {
  it("run back up at most 3 times, each from test support only", () => {
    const up = arrows().filter((arrow) => arrow.up);
    expect(up.length).toBeLessThanOrEqual(3);
    expect(up.filter((arrow) => !arrow.testSupportOnly)).toEqual([]);
  });

  it("place files in rooms and rooms on the floors of layers.cjs", () => {
    expect(roomOf("packages/wisent/src/middleware/csrf/csrf.ts")).toBe("middleware");
    expect(roomOf("packages/wisent/src/index.ts")).toBe("entries");
    expect(floorOf("base")).toBe(0);
    expect(floorOf("app")).toBeLessThan(floorOf("auth"));
  });
});
