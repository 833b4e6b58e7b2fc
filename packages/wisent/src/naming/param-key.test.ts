import { describe, expect, it } from "vitest";
import { paramKeyFromClassName } from "./param-key.js";
import { PARAM_KEY_CASES } from "./test-support/cases.js";

describe("paramKeyFromClassName", () => {
  // MenusResource gives menu_id, not Buffalo's menus_id: see the note in cases.ts.
  it.each(PARAM_KEY_CASES)("%s -> %s", (className, paramKey) => {
    expect(paramKeyFromClassName(className)).toBe(paramKey);
  });

  it("strips only a trailing, exactly-cased Resource", () => {
    expect(paramKeyFromClassName("ResourceWidgets")).toBe("resource_widget_id");
    expect(paramKeyFromClassName("WidgetsRESOURCE")).toBe("widgets_resource_id");
  });

  it("rejects a non-string with a clear error", () => {
    expect(() => paramKeyFromClassName(42 as unknown as string)).toThrow(
      "paramKeyFromClassName: className must be a string, got number",
    );
  });
});
