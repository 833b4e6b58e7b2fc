import { describe, expect, it } from "vitest";
import { isUncountable, pluralize, singularize } from "./inflection.js";
import { INFLECTION_CASES } from "./test-support/cases.js";

describe("pluralize / singularize", () => {
  it.each(INFLECTION_CASES)("%s <-> %s", (singular, plural) => {
    expect(pluralize(singular)).toBe(plural);
    expect(singularize(plural)).toBe(singular);
  });

  it.each(INFLECTION_CASES)("round-trips and is idempotent: %s / %s", (singular, plural) => {
    expect(singularize(pluralize(singular))).toBe(singular);
    expect(pluralize(singularize(plural))).toBe(plural);
    expect(pluralize(plural)).toBe(plural);
    expect(singularize(singular)).toBe(singular);
  });

  it("changes only the last word and keeps the rest of the text", () => {
    expect(pluralize("my_big_mouse")).toBe("my_big_mice");
    expect(pluralize("Admin::Person")).toBe("Admin::People");
    expect(singularize("super-categories")).toBe("super-category");
  });

  it("keeps the capitalisation of the last word", () => {
    expect(pluralize("ID")).toBe("IDs");
    expect(singularize("IDs")).toBe("ID");
    expect(pluralize("WIDGET")).toBe("WIDGETS");
    expect(singularize("Children")).toBe("Child");
  });

  it("leaves input without words alone", () => {
    expect(pluralize("")).toBe("");
    expect(singularize("__")).toBe("__");
  });
});

describe("isUncountable", () => {
  it.each(["news", "sheep", "equipment", "user_news"])("%s is uncountable", (w) => {
    expect(isUncountable(w)).toBe(true);
  });
  it.each(["widget", "widgets", "people", "menus", ""])("%s is not", (w) => {
    expect(isUncountable(w)).toBe(false);
  });
});
