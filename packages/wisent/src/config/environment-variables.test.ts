import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../base/error-codes.js";
import { ownSources, SRC } from "../base/test-support/own-sources.js";
import { isWisentError } from "../base/wisent-error.js";
import { envValue, integerSetting } from "./env.js";
import { ENVIRONMENT_VARIABLES } from "./environment-variables.js";
import { currentEnv, listenHost, listenPort } from "./settings.js";

/** A read of a variable by name (`process.env.PORT`, `env.HOST`, `process.env[name]`), not a write. */
const DIRECT_READ =
  /(?:process\.env|\benv|\bvars|\bexported|\bdotEnv)(?:\.[A-Z][A-Z0-9_]+\b|\[[A-Z"][^\]]*\])(?!\s*=[^=])/;
/(?:process\.env|\benv|\bvars|\bexported|\bdotEnv)(?:\.[A-Z][A-Z0-9_]+|\[)(?!\s*=[^=])/;

/**
 * A call of the readers of env.ts, or a look into `process.env` (`process.env.X`,
 * `process.env[key]`, `process.env?.X`); handing `process.env` on whole (to a setting, or to a
 * child process) is not one.
 */
const ENV_READER = /\b(?:envValue|integerSetting)\(|\bprocess\.env\s*(?:\?\.|\.|\[)/;

describe("the environment variables", () => {
  it("are read by name only in src/config/ (everything else asks envValue or a setting)", () => {
    const offenders = ownSources()
      .filter((file) => !file.startsWith("config/"))
      .flatMap((file) =>
        readFileSync(join(SRC, file), "utf8")
          .split("\n")
          .filter((line) => !/^\s*(\*|\/\/)/.test(line) && DIRECT_READ.test(line))
          .map((line) => `${file}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it("are read through envValue only in src/config/: elsewhere a named setting of settings.ts", () => {
    const offenders = ownSources()
      .filter((file) => !file.startsWith("config/"))
      .flatMap((file) =>
        readFileSync(join(SRC, file), "utf8")
          .split("\n")
          .filter((line) => !/^\s*(\*|\/\/)/.test(line) && ENV_READER.test(line))
          .map((line) => `${file}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it("come from an app's .env file read only in src/config/ (dot-env.ts)", () => {
    const readers = ownSources().filter(
      (file) =>
        !file.startsWith("config/") &&
        /\bparseEnv\(|loadEnvFile\(/.test(readFileSync(join(SRC, file), "utf8")),
    );
    expect(readers).toEqual([]);
  });

  it("in the table are each read somewhere, and each once in the table", () => {
    const text = ownSources()
      .filter((file) => file !== "config/environment-variables.ts")
      .map((file) => readFileSync(join(SRC, file), "utf8"))
      .join("\n");
    const names = ENVIRONMENT_VARIABLES.map((v) => v.name);
    expect(names.filter((name) => !text.includes(`"${name}"`))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("are trimmed, and empty counts as unset", () => {
    expect(envValue("PORT", { PORT: " 8080 " })).toBe("8080");
    expect(envValue("PORT", { PORT: "  " })).toBeUndefined();
    expect(currentEnv({ GO_ENV: "", NODE_ENV: "test" })).toBe("test");
    expect(currentEnv({})).toBe("development");
    expect(listenPort({})).toBe(3000);
    expect(listenHost({ HOST: "http://shop.example" })).toBe("127.0.0.1");
  });

  it("with a value Wisent cannot use throw E_CONFIG_INVALID, naming the variable and the range", () => {
    let thrown: unknown;
    try {
      integerSetting("POOL_SIZE", 10, { min: 1, max: 1000 }, { POOL_SIZE: "lots" });
    } catch (error) {
      thrown = error;
    }
    expect(isWisentError(thrown, "E_CONFIG_INVALID")).toBe(true);
    expect((thrown as Error).message).toContain(
      'POOL_SIZE must be a whole number from 1 to 1000, got "lots"',
    );
    expect(() => listenPort({ PORT: "70000" })).toThrow("PORT must be a whole number");
  });
});

describe("the error codes", () => {
  it("in the table are each thrown somewhere", () => {
    const text = ownSources()
      .filter((file) => file !== "base/error-codes.ts")
      .map((file) => readFileSync(join(SRC, file), "utf8"))
      .join("\n");
    expect(Object.keys(ERROR_CODES).filter((code) => !text.includes(`"${code}"`))).toEqual([]);
  });
});
