import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appDatabaseUrl, appEnvironment, testDatabaseUrl } from "./app-database-url.js";

const PG = "postgres://app:secret@127.0.0.1:5432";

describe("testDatabaseUrl", () => {
  it.each([
    ["sqlite:db/development.sqlite", "sqlite:db/test.sqlite"],
    ["sqlite:db/blog.sqlite", "sqlite:db/blog_test.sqlite"],
    ["sqlite:///var/data/blog.db", "sqlite:///var/data/blog_test.db"],
    ["sqlite:blog.sqlite", "sqlite:blog_test.sqlite"],
    ["sqlite:db/test.sqlite", "sqlite:db/test.sqlite"],
    ["sqlite::memory:", "sqlite::memory:"],
    [`${PG}/blog`, `${PG}/blog_test`],
    [`${PG}/blog_development`, `${PG}/blog_test`],
    [`${PG}/blog_dev?sslmode=disable`, `${PG}/blog_test?sslmode=disable`],
    [`${PG}/blog_test`, `${PG}/blog_test`],
    ["mysql://root@127.0.0.1:3306/shop", "mysql://root@127.0.0.1:3306/shop_test"],
  ])("%s -> %s", (url, expected) => {
    expect(testDatabaseUrl(url)).toBe(expected);
  });
});

describe("appDatabaseUrl: one rule for the CLI, the server it starts and Vitest", () => {
  const dotEnv = { DATABASE_URL: `${PG}/blog` };
  it.each([
    ["development, nothing set", {}, {}, "sqlite:db/development.sqlite"],
    ["test, nothing set", { GO_ENV: "test" }, {}, "sqlite:db/test.sqlite"],
    ["production, nothing set", { GO_ENV: "production" }, {}, "sqlite:db/production.sqlite"],
    ["development, .env's URL", {}, dotEnv, `${PG}/blog`],
    ["test, .env's URL: its _test twin", { GO_ENV: "test" }, dotEnv, `${PG}/blog_test`],
    ["test from .env's GO_ENV", {}, { ...dotEnv, GO_ENV: "test" }, `${PG}/blog_test`],
    ["NODE_ENV=test", { NODE_ENV: "test" }, dotEnv, `${PG}/blog_test`],
    [
      "test, TEST_DATABASE_URL wins over .env's",
      { GO_ENV: "test", TEST_DATABASE_URL: `${PG}/ci` },
      dotEnv,
      `${PG}/ci`,
    ],
    [
      "test, TEST_DATABASE_URL in .env",
      { GO_ENV: "test" },
      { ...dotEnv, TEST_DATABASE_URL: `${PG}/other` },
      `${PG}/other`,
    ],
    [
      "an exported DATABASE_URL is used as given, in test too",
      { GO_ENV: "test", DATABASE_URL: "sqlite:/tmp/x.sqlite" },
      dotEnv,
      "sqlite:/tmp/x.sqlite",
    ],
    [
      "an empty exported DATABASE_URL counts as unset",
      { GO_ENV: "test", DATABASE_URL: "" },
      dotEnv,
      `${PG}/blog_test`,
    ],
    ["production, .env's URL", { GO_ENV: "production" }, dotEnv, `${PG}/blog`],
  ])("%s", (_case, exported, fromFile, expected) => {
    expect(appDatabaseUrl(exported, fromFile)).toBe(expected);
  });

  it("appEnvironment reads .env, lets exported variables win, and sets the resolved URL", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-env-"));
    try {
      writeFileSync(join(dir, ".env"), `DATABASE_URL=${PG}/blog\nPORT=4000\nHOST=0.0.0.0\n`);
      const env = appEnvironment(dir, { GO_ENV: "test", PORT: "5000" });
      expect(env).toMatchObject({ DATABASE_URL: `${PG}/blog_test`, PORT: "5000", HOST: "0.0.0.0" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
