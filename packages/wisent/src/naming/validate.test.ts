import { describe, expect, it } from "vitest";
import { NAMES_CASES } from "./test-support/cases.js";
import { validateResourceName } from "./validate.js";

describe("validateResourceName", () => {
  it.each([
    ...NAMES_CASES.map((c) => c.input),
    "resource",
    "v1/widget",
    "newsletters",
    "tests_runs",
  ])("accepts %s", (input) => {
    expect(validateResourceName(input)).toBeUndefined();
  });

  it.each([
    ["", "resource name must not be empty"],
    ["   ", "resource name must not be empty"],
    [
      "wid get$",
      'resource name "wid get$" contains invalid characters (" ", "$"): use letters, digits, "_" and "-", and "/" for a namespace',
    ],
    [
      "admin//widget",
      'resource name "admin//widget" has an empty part: write a namespace as "admin/widget"',
    ],
    ["/widget", 'resource name "/widget" has an empty part: write a namespace as "admin/widget"'],
    ["1widget", 'resource name "1widget": each part must start with a letter'],
    ["admin/2fa", 'resource name "admin/2fa": each part must start with a letter'],
    ["_widget", 'resource name "_widget": each part must start with a letter'],
  ])("rejects %j", (input, message) => {
    expect(validateResourceName(input)).toBe(message);
  });

  it.each([
    "app",
    "apps",
    "home",
    "server",
    "test",
    "tests",
    "constructor",
    "prototype",
    "class",
    "classes",
    "function",
    "new",
    "delete",
    "default",
    "Default",
    "admin/class",
    "new/widget",
  ])("rejects the reserved name %s", (input) => {
    expect(validateResourceName(input)).toMatch(/^resource name ".*" is reserved \(".*" is a/);
  });

  it("rejects a non-string", () => {
    expect(validateResourceName(7)).toBe("resource name must be a string, got number");
  });
});
