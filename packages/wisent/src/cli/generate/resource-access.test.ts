import { describe, expect, it } from "vitest";
import { type AccessRequest, resourceAccess } from "./resource-access.js";

describe("resourceAccess", () => {
  const cases: [string, boolean, AccessRequest, string][] = [
    ["after g auth, by default", true, { ownModel: true }, "owned"],
    ["after g auth, --shared", true, { shared: true, ownModel: true }, "shared"],
    ["after g auth, --public", true, { public: true, ownModel: true }, "public"],
    ["after g auth, no model of its own", true, { ownModel: false }, "shared"],
    [
      "after g auth, no model of its own, --public",
      true,
      { public: true, ownModel: false },
      "public",
    ],
    ["without authentication", false, { ownModel: true }, "public"],
    ["without authentication, --public", false, { public: true, ownModel: true }, "public"],
  ];
  it.each(cases)("%s", (_, authentication, request, expected) => {
    expect(resourceAccess(authentication, request)).toBe(expected);
  });

  it("refuses --shared without authentication, and --shared with --public", () => {
    expect(() => resourceAccess(false, { shared: true, ownModel: true })).toThrow(
      /--shared makes a resource for signed-in users.*wisent generate authentication first/,
    );
    expect(() => resourceAccess(true, { shared: true, public: true, ownModel: true })).toThrow(
      /--shared and --public contradict each other/,
    );
  });
});
