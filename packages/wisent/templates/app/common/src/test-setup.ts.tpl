import { prepareTestDatabase } from "wisent/testing";

/**
 * Vitest's global setup (vitest.config.ts): `GO_ENV=test wisent db prepare` before the tests run,
 * so the test database exists and has every migration.
 */
export default async function setup(): Promise<void> {
  await prepareTestDatabase();
}
