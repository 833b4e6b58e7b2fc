import { describe, expect, it } from "vitest";
import { isAcronym } from "./acronyms.js";
import { camelize, pascalize, titleize, underscore } from "./casing.js";
import { CASING_CASES, WORD_CASES } from "./test-support/cases.js";
import { splitWords, wordSpans } from "./words.js";

describe("splitWords", () => {
  it.each(WORD_CASES)("%j -> %j", (input, words) => {
    expect(splitWords(input)).toEqual(words);
  });

  it("reports where each word sits in the input", () => {
    const input = "admin/UserProfile";
    expect(wordSpans(input).map((s) => input.slice(s.start, s.end))).toEqual([
      "admin",
      "User",
      "Profile",
    ]);
  });
});

describe("camelize / pascalize / underscore", () => {
  it.each(CASING_CASES)("%s -> %s, %s, %s", (input, camel, pascal, snake) => {
    expect(camelize(input)).toBe(camel);
    expect(pascalize(input)).toBe(pascal);
    expect(underscore(input)).toBe(snake);
  });

  // Adjacent acronyms run together once cased (`jsonURLUUID`), so those cannot round-trip.
  const separable = CASING_CASES.filter(
    ([input]) => !["json_url_uuid", "my_css_db_vm"].includes(input),
  );
  it.each(separable)("all three agree on the words of %s", (input) => {
    expect(underscore(camelize(input))).toBe(underscore(input));
    expect(underscore(pascalize(input))).toBe(underscore(input));
  });
});

describe("titleize", () => {
  it.each([
    ["user_profile", "User Profile"],
    ["UserProfile", "User Profile"],
    ["api_key", "API Key"],
    ["people", "People"],
  ])("%s -> %s", (input, human) => {
    expect(titleize(input)).toBe(human);
  });
});

describe("isAcronym", () => {
  it.each(
    "OK UTF8 HTML JSON JWT ID UUID SQL API URL URI CLI HTTP HTTPS XML CSS IP TCP UDP UI DB TLS SSL VM".split(
      " ",
    ),
  )("%s is an acronym in any case", (a) => {
    expect(isAcronym(a)).toBe(true);
    expect(isAcronym(a.toLowerCase())).toBe(true);
  });

  it.each(["snap", "pots", "ids", "widget"])("%s is not", (w) => {
    expect(isAcronym(w)).toBe(false);
  });
});
