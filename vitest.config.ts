import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.{ts,tsx}", "e2e/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**", "examples/**"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
