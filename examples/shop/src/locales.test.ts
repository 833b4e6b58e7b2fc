import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`./locales/${file}`, import.meta.url), "utf8"));

describe("locale messages (en-US, the default locale)", () => {
  it("has the spec's three widget messages", () => {
    const messages = JSON.stringify(read("widgets.en-US.json"));
    for (const text of [
      "Widget was successfully created.",
      "Widget was successfully updated.",
      "Widget was successfully destroyed.",
    ]) {
      expect(messages).toContain(text);
    }
  });
});
