import { describe, expect, it } from "vitest";
import { newRequestId, requestIdFrom } from "./request-id.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newRequestId", () => {
  it("makes distinct random version 4 UUIDs, across many batches", () => {
    const ids = Array.from({ length: 5000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses every hex digit in every random position", () => {
    const ids = Array.from({ length: 2000 }, () => newRequestId());
    for (let at = 0; at < 36; at++) {
      if ([8, 13, 18, 23].includes(at)) continue;
      const seen = new Set(ids.map((id) => id[at]));
      // The version digit is always 4; the variant digit is one of 8, 9, a, b.
      expect(seen.size).toBe(at === 14 ? 1 : at === 19 ? 4 : 16);
    }
  });
});

describe("requestIdFrom", () => {
  it("keeps a sane incoming id and makes one otherwise", () => {
    expect(requestIdFrom("abc-123:x@y/z+=.")).toBe("abc-123:x@y/z+=.");
    expect(requestIdFrom(undefined)).toMatch(UUID_V4);
    expect(requestIdFrom("")).toMatch(UUID_V4);
    expect(requestIdFrom("has space")).toMatch(UUID_V4);
    expect(requestIdFrom('quote"')).toMatch(UUID_V4);
    expect(requestIdFrom("x".repeat(201))).toMatch(UUID_V4);
    expect(requestIdFrom("x".repeat(200))).toBe("x".repeat(200));
  });

  it("gives ids that need no escaping in JSON, whatever came in", () => {
    const wrong: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const incoming = `id-${String.fromCharCode(unit)}-1`;
      const id = requestIdFrom(incoming);
      if (JSON.stringify(id) !== `"${id}"`) wrong.push(incoming);
    }
    expect(wrong).toEqual([]);
  });
});
