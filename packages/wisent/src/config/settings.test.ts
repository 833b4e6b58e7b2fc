import { describe, expect, it, vi } from "vitest";
import { App } from "../app/app.js";
import { sharedLogger } from "../http/logger.js";
import {
  isProduction,
  isProductionLike,
  jobsUrlSetting,
  mailFromSetting,
  redisUrlSetting,
  smtpUrlSetting,
  storageUrlSetting,
  unknownEnvironmentNotice,
} from "./settings.js";

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

describe("the settings of services", () => {
  it("read their variable from the environment given, trimmed, unset when empty", () => {
    const env = {
      SMTP_URL: " smtp://mail:587 ",
      REDIS_URL: "redis://r:6379",
      JOBS_URL: "redis://r:6379/1",
      STORAGE_URL: "",
    };
    expect(smtpUrlSetting(env)).toBe("smtp://mail:587");
    expect(redisUrlSetting(env)).toBe("redis://r:6379");
    expect(jobsUrlSetting(env)).toBe("redis://r:6379/1");
    expect(storageUrlSetting(env)).toBeUndefined();
    expect(mailFromSetting(env)).toBe("no-reply@localhost");
    expect(mailFromSetting({ MAIL_FROM: "shop@example.com" })).toBe("shop@example.com");
  });
});
