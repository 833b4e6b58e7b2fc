import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path.js";

describe("safeReturnPath", () => {
  it.each([
    ["/widgets", "/widgets"],
    ["/widgets/1/edit?tab=2#top", "/widgets/1/edit?tab=2#top"],
    ["/", "/"],
    ["/a/../b", "/b"],
    ["/a/./b", "/a/b"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%0a", "/%0a"],
  ])("keeps a same-origin path, normalised: %j", (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([undefined, 42, "", "evil.example", `/${"a".repeat(3000)}`])("refuses %j", (value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });
});

/**
 * The whole class of open-redirect shapes, generated: a start (`/`, `//`, `/\`, schemes), dot
 * segments plain and percent-encoded in every case, slashes and backslashes plain and encoded,
 * and tabs/newlines/spaces between them, in front of a host. Thousands of variants.
 */
function redirectVariants(): string[] {
  const starts = ["", "/", "//", "\\", "/\\", "\\/", "https:", "https://", "http:/", "javascript:"];
  const dots = ["", ".", "..", "%2e", "%2E", ".%2e", "%2e%2e", "%2E%2e", "x/..", "x/%2e%2e", "./."];
  const seps = ["/", "//", "\\", "/\\", "\\\\", "%2f", "%2F", "%5c", "/%2f", "\t/", "/\t/", "/\n/"];
  const gaps = ["", "\t", "\n", "\r", " ", "\u0000"];
  const hosts = ["evil.example", "evil.example/x?y=1", "@evil.example", "%65vil.example"];
  const out = new Set<string>();
  for (const start of starts)
    for (const dot of dots)
      for (const sep of seps)
        for (const gap of gaps)
          for (const host of hosts) out.add(`${start}${dot}${gap}${sep}${host}`);
  return [...out];
}

/** Where a browser on https://app.example/page goes with `Location: value`, browsers' way. */
function followed(value: string): URL {
  // Browsers strip tabs and newlines, and read `\` as `/`, as the URL standard says.
  return new URL(value, "https://app.example/page");
}

describe("safeReturnPath over the whole class of redirect shapes", () => {
  const variants = redirectVariants();

  it("covers the reported escapes among thousands of variants", () => {
    expect(variants.length).toBeGreaterThan(10_000);
    for (const reported of [
      "/.//evil.example",
      "/..//evil.example",
      "/x/..//evil.example",
      "/%2e//evil.example",
      "//evil.example",
    ]) {
      expect(variants).toContain(reported);
    }
  });

  it("never gives a path that leaves the site, and gives only one-slash paths", () => {
    let kept = 0;
    let escaping = 0;
    for (const value of variants) {
      let leaves = false;
      try {
        leaves = followed(value).origin !== "https://app.example";
      } catch {}
      if (leaves) escaping++;
      const result = safeReturnPath(value);
      if (result === undefined) continue;
      kept++;
      // The normalised form: exactly one `/`, then neither `/` nor `\`; no control characters.
      expect(result, JSON.stringify(value)).toMatch(/^\/(?![/\\])/);
      expect([...result].some((ch) => ch === "\\" || ch < " " || ch === "\u007f")).toBe(false);
      expect(followed(result).origin, JSON.stringify(value)).toBe("https://app.example");
      // Stable: checked again, it is itself.
      expect(safeReturnPath(result)).toBe(result);
    }
    // The generator does produce escapes, and safe paths that are kept.
    expect(escaping).toBeGreaterThan(1000);
    expect(kept).toBeGreaterThan(100);
  });
});
