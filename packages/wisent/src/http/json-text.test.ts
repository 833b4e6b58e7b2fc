import { describe, expect, it } from "vitest";
import { jsonMilliseconds, jsonNumber, jsonString, jsonStringContent } from "./json-text.js";
import { HOSTILE_STRINGS } from "./test-support/hostile-strings.js";

describe("jsonString", () => {
  it.each(
    HOSTILE_STRINGS.map((s) => [s.length > 60 ? `${s.slice(0, 40)}... (${s.length})` : s, s]),
  )("equals JSON.stringify for %j", (_name, text) => {
    expect(jsonString(text)).toBe(JSON.stringify(text));
  });

  it("equals JSON.stringify for every single UTF-16 code unit, alone and between letters", () => {
    const wrong: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const char = String.fromCharCode(unit);
      for (const text of [char, `a${char}b`]) {
        if (jsonString(text) !== JSON.stringify(text)) wrong.push(text);
        if (`"${jsonStringContent(text)}"` !== JSON.stringify(text)) wrong.push(text);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("jsonStringContent", () => {
  it("escapes texts written side by side, a space between them, as their concatenation", () => {
    const pieces = ["GET", "\ud800", "\udc00", "a\ud83e", "\udd80b", '"', "\\", "\n", "caf\u00e9"];
    for (const a of pieces) {
      for (const b of pieces) {
        const together = JSON.stringify(`${a} ${b} 200`);
        expect(`"${jsonStringContent(a)} ${jsonStringContent(b)} 200"`).toBe(together);
      }
    }
  });
});

describe("jsonMilliseconds", () => {
  const rounded = (ms: number) => JSON.stringify(Math.round(ms * 1000) / 1000);

  it("equals JSON.stringify of the duration rounded to the microsecond, for every microsecond up to 3 s", () => {
    const wrong: number[] = [];
    for (let micros = 0; micros <= 3_000_000; micros++) {
      // The durations a clock gives: a microsecond count with noise below it.
      const ms = micros / 1000 + ((micros * 7) % 10) * 1e-5;
      if (jsonMilliseconds(ms) !== rounded(ms)) wrong.push(ms);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    0,
    -0,
    0.1,
    0.0004,
    0.0005,
    0.0015,
    0.001,
    0.01,
    0.999_5,
    1,
    1.5,
    2.25,
    12.345_6,
    0.123_456_789,
    1e3,
    1e6,
    86_400_000.123_4,
    123_456_789.987_654,
    999_999_999_999.999,
    1e12,
    1e15,
    1e18,
    1e21,
    1e300,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -0.000_4,
    -0.000_5,
    -1,
    -1.234_5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ])("equals JSON.stringify of the rounded duration for %d", (ms) => {
    expect(jsonMilliseconds(ms)).toBe(rounded(ms));
  });

  it("equals it for random durations of every size", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const wrong: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      const ms = random() * 10 ** Math.floor(random() * 18 - 3);
      if (jsonMilliseconds(ms) !== rounded(ms)) wrong.push(ms);
    }
    expect(wrong).toEqual([]);
  });
});

describe("jsonNumber", () => {
  it.each([
    0,
    -0,
    1,
    200,
    404,
    599,
    0.1,
    0.2 + 0.1,
    1e21,
    1e-7,
    123e-20,
    -1.5,
    2 ** 53,
    2 ** 31,
    -(2 ** 31),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.EPSILON,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ])("equals JSON.stringify for %d", (n) => {
    expect(jsonNumber(n)).toBe(JSON.stringify(n));
  });
});
