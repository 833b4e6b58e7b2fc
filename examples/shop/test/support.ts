/**
 * Each test file gets its own SQLite database in a temp folder, migrated to the latest schema,
 * so files can run in parallel without seeing each other's rows.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrateUp } from "wisent/db";
import { testClient } from "wisent/testing";

export async function freshApp() {
  const dir = mkdtempSync(join(tmpdir(), "shop-test-"));
  process.env.DATABASE_URL = `sqlite:${join(dir, "test.sqlite")}`;
  const { app } = await import("../src/app.js");
  const { db } = await import("../src/db.js");
  await migrateUp(db, fileURLToPath(new URL("../migrations/", import.meta.url)));
  return { app, db };
}

export type ShopApp = Awaited<ReturnType<typeof freshApp>>["app"];

/** A browser-like client (cookies, CSRF tokens) and JSON/XML clients for one app. */
export function clients(app: ShopApp) {
  return {
    browser: testClient(app),
    json: testClient(app, { headers: { accept: "application/json" } }),
    xml: testClient(app, { headers: { accept: "application/xml" } }),
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
