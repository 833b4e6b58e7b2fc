import { describe, expect, it } from "vitest";
import { withArticle } from "./article.js";

describe("withArticle", () => {
  it.each([
    ["widget", "a widget"],
    ["author", "an author"],
    ["image", "an image"],
    ["order item", "an order item"],
    ["user", "a user"],
    ["user profile", "a user profile"],
    ["unit", "a unit"],
    ["umbrella", "an umbrella"],
    ["update", "an update"],
    ["euro", "a euro"],
    ["hour", "an hour"],
    ["honest review", "an honest review"],
    ["house", "a house"],
    ["one-off", "a one-off"],
    ["FAQ", "an FAQ"],
    ["UUID", "a UUID"],
    ["SQL table", "an SQL table"],
    ["", "a "],
  ])("%j is %j", (phrase, expected) => {
    expect(withArticle(phrase)).toBe(expected);
  });
});
