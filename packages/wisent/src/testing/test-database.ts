/**
 * The app's test database for Vitest: its URL (the same rule as the CLI's) and getting it ready
 * before a run.
 * @module
 */

import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { announceStartupNotices } from "../app/startup-notices.js";
import { packageRoot } from "../base/package-root.js";
import { WisentError } from "../base/wisent-error.js";
import { databaseUrlSetting, storageUrlSetting } from "../config/settings.js";
import { appEnvironment } from "../data/app-database-url.js";
import { storageLocation, TEST_STORAGE_FOLDER } from "../storage/storage-url.js";

/**
 * The variables an app's tests run with: `GO_ENV=test` and the test database's `DATABASE_URL`
 * (`TEST_DATABASE_URL`, else the `_test` twin of `.env`'s `DATABASE_URL`, else
 * `sqlite:db/test.sqlite`), the URL `GO_ENV=test wisent migrate` uses too. For `vitest.config.ts`.
 *
 * @param cwd - the app's folder (default the working folder), whose `.env` is read
 * @returns `{ GO_ENV: "test", DATABASE_URL }`
 * @example
 * export default defineConfig({ test: { env: testEnvironment() } });
 */
export function testEnvironment(cwd: string = process.cwd()): Record<string, string> {
  const env = appEnvironment(cwd, { ...process.env, GO_ENV: "test" });
  return { GO_ENV: "test", DATABASE_URL: databaseUrlSetting(env, cwd) };
}

/** The CLI, as `npx wisent` runs it (from the package root: this file may be bundled). */
const cli = () => join(packageRoot(), "bin/wisent.js");

/**
 * Vitest's global setup: runs `GO_ENV=test wisent db prepare` in the app, which creates the test
 * database when missing, starts it over when a migration that ran has lost its file, and runs
 * the pending migrations, so a new migration never breaks the tests with "no such table".
 * Rejects with the command's output when it fails.
 *
 * @param cwd - the app's folder (default the working folder)
 * @returns once the test database is migrated; prints what changed, if anything
 * @throws Error with the command's output when `wisent db prepare` fails (a migration that
 *   fails, a database server that cannot be reached)
 * @example
 * // src/test-setup.ts, named in vitest.config.ts's globalSetup
 * export default async function setup() { await prepareTestDatabase(); }
 */
export function prepareTestDatabase(cwd: string = process.cwd()): Promise<void> {
  // Vitest's main process: its start-up notices once, not again in every test file's worker.
  announceStartupNotices("test");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli(), "db", "prepare"], {
      cwd,
      env: { ...process.env, GO_ENV: "test", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(
          new WisentError(
            "E_TEST_SETUP",
            `preparing the test database failed (wisent db prepare):\n${output}`,
          ),
        );
        return;
      }
      // Say what changed; stay quiet when the database was up to date.
      const news = output.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("nothing to"));
      if (news.length > 0) process.stdout.write(`test database:\n${news.join("\n")}\n`);
      resolve();
    });
  });
}

/**
 * Vitest's global teardown: removes the files the tests stored in the test environment's own
 * folder (`tmp/test-storage/`, where uploads go when `STORAGE_URL` is unset), so a run leaves
 * nothing behind and never writes to development's `storage/`. A storage `STORAGE_URL` names is
 * never touched. Returned by `src/test-setup.ts`'s setup.
 *
 * @example
 * export default async function setup() { await prepareTestDatabase(); return removeTestUploads; }
 */
export async function removeTestUploads(cwd: string = process.cwd()): Promise<void> {
  const env = { ...process.env, GO_ENV: "test" };
  const location = storageLocation(storageUrlSetting(env), cwd, env);
  const own = resolve(cwd, TEST_STORAGE_FOLDER);
  if (location.driver === "fs" && location.root === own) {
    await rm(own, { recursive: true, force: true });
  }
}
