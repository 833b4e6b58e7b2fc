import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    // The app's tests use the test environment (db/test.sqlite unless DATABASE_URL is set).
    env: { GO_ENV: "test" },
  },
});
