import { prepareTestDatabase, removeTestUploads } from "wisent/testing";

/**
 * Vitest's global setup (vitest.config.ts): `GO_ENV=test wisent db prepare` before the tests run,
 * so the test database exists and has every migration. The files the tests upload go to
 * tmp/test-storage/ (never development's storage/), removed when the run ends.
 */
export default async function setup(): Promise<() => Promise<void>> {
  await prepareTestDatabase();
  return removeTestUploads;
}
