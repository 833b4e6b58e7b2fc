import { describe, expect, it } from "vitest";
import { storageLocation } from "./storage-url.js";

describe("storageLocation", () => {
  it("keeps files in storage/ by default, and the test environment's under tmp/", () => {
    expect(storageLocation(undefined, "/app", { GO_ENV: "development" })).toEqual({
      driver: "fs",
      root: "/app/storage",
    });
    expect(storageLocation("", "/app", { GO_ENV: "production" })).toEqual({
      driver: "fs",
      root: "/app/storage",
    });
    expect(storageLocation(undefined, "/app", { GO_ENV: "test" })).toEqual({
      driver: "fs",
      root: "/app/tmp/test-storage",
    });
    // A storage the tests are told to use is theirs.
    expect(storageLocation("file:uploads", "/app", { GO_ENV: "test" })).toEqual({
      driver: "fs",
      root: "/app/uploads",
    });
  });
});
