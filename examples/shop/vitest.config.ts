import { defineConfig } from "vitest/config";
import { testEnvironment } from "wisent/testing";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    // GO_ENV=test and the test database: TEST_DATABASE_URL, else the _test twin of .env's
    // DATABASE_URL, else db/test.sqlite (the database `GO_ENV=test wisent migrate` uses too).
    env: testEnvironment(),
    // Creates the test database when missing and migrates it before the tests run.
    globalSetup: ["./src/test-setup.ts"],
  },
});
