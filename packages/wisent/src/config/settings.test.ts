import { describe, expect, it, vi } from "vitest";
import { App } from "../app/app.js";
import { sharedLogger } from "../http/logger.js";
import {
  allowedHostsSetting,
  assetsMaxAgeSetting,
  awsRegionSetting,
  colorSetting,
  devServerUrlSetting,
  isProduction,
  isProductionLike,
  jobsUrlSetting,
  mailFromSetting,
  noticesShownSetting,
  redisUrlSetting,
  sessionSecretsSetting,
  smtpUrlSetting,
  storageUrlSetting,
  threadPoolSizeSetting,
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

describe("the settings read outside config/", () => {
  it("split lists on commas, trimmed, empty entries dropped", () => {
    expect(sessionSecretsSetting({ SESSION_SECRET: " new-secret , old-secret ," })).toEqual([
      "new-secret",
      "old-secret",
    ]);
    expect(allowedHostsSetting({})).toEqual([]);
    expect(noticesShownSetting({ WISENT_NOTICES_SHOWN: "a1,b2" })).toEqual(["a1", "b2"]);
  });

  it("apply their fallbacks", () => {
    expect(awsRegionSetting({ AWS_DEFAULT_REGION: "eu-west-1" })).toBe("eu-west-1");
    expect(awsRegionSetting({ AWS_REGION: "eu-north-1", AWS_DEFAULT_REGION: "x" })).toBe(
      "eu-north-1",
    );
    expect(awsRegionSetting({})).toBe("us-east-1");
    expect(assetsMaxAgeSetting({ ASSETS_MAX_AGE: "soon" })).toBe(31_536_000);
    expect(threadPoolSizeSetting({ UV_THREADPOOL_SIZE: "16" })).toBe(16);
    expect(devServerUrlSetting({ WISENT_DEV_URL: "http://127.0.0.1:3000" })).toBeUndefined();
    expect(
      devServerUrlSetting({ WISENT_DEV_SUPERVISOR: "1", WISENT_DEV_URL: "http://127.0.0.1:3000" }),
    ).toBe("http://127.0.0.1:3000");
  });

  it("say whether the environment asks for colour, or leave it to the terminal", () => {
    expect(colorSetting({ FORCE_COLOR: "0", NO_COLOR: "" })).toBe(false);
    expect(colorSetting({ FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
    expect(colorSetting({ NO_COLOR: "1" })).toBe(false);
    expect(colorSetting({ TERM: "dumb" })).toBe(false);
    expect(colorSetting({ TERM: "xterm" })).toBeUndefined();
  });
});
