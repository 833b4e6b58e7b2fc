import { describe, expect, it, vi } from "vitest";
import { App } from "../app/app.js";
import { sharedLogger } from "../http/logger.js";
import { isProduction, isProductionLike, unknownEnvironmentNotice } from "./settings.js";

describe("environments", () => {
  it.each([
    ["development", false],
    ["test", false],
    ["production", true],
    ["staging", true],
    ["prod", true],
    ["Production", true],
    ["Test", true],
  ])("%s runs with production's defaults: %s", (env, productionLike) => {
    expect(isProductionLike(env)).toBe(productionLike);
    expect(isProduction({ GO_ENV: env })).toBe(productionLike);
    expect(unknownEnvironmentNotice(env) !== undefined).toBe(
      !["development", "test", "production"].includes(env),
    );
  });

  it("says once, at start-up, that an unknown environment runs as production", () => {
    const warn = vi.spyOn(sharedLogger(), "warn").mockImplementation(() => {});
    try {
      new App({ name: "a", env: "staging-eu" });
      new App({ name: "b", env: "staging-eu" });
      new App({ name: "c", env: "production" });
      expect(warn.mock.calls.map(([entry]) => entry.msg)).toEqual([
        'environment "staging-eu" is not development, test or production: running with production\'s defaults (SESSION_SECRET required, HTTPS enforced, allowed hosts checked, no stack traces)',
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});
