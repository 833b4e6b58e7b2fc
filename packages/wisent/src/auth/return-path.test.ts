import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path.js";

describe("safeReturnPath", () => {
  it.each([
    ["/widgets", "/widgets"],
    ["/widgets/1/edit?tab=2#top", "/widgets/1/edit?tab=2#top"],
    ["/", "/"],
    ["/a/../b", "/b"],
  ])("keeps a same-origin path: %j", (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/\n/evil.example",
    "evil.example",
    "",
    "/%0a",
    undefined,
    42,
    `/${"a".repeat(3000)}`,
  ])("refuses what could leave the site: %j", (value) => {
    const kept = safeReturnPath(value);
    // "/%0a" is a harmless escaped path; everything else is refused outright.
    if (value === "/%0a") expect(kept).toBe("/%0a");
    else expect(kept).toBeUndefined();
  });
});
