import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App } from "../../app/app.js";
import { type Database, openDatabase } from "../../data/database.js";
import { migrateUp } from "../../data/migrations.js";
import { MIGRATIONS } from "../../data/test-support/widget.js";
import { pendingMigrations } from "./pending-migrations.js";

let dir: string;
let db: Database;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wisent-pending-"));
  db = await openDatabase(`sqlite:${join(dir, "app.sqlite")}`);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (app: App, headers: Record<string, string> = {}) =>
  app.fetch(new Request("http://localhost/", { headers }));

function appIn(env: string) {
  const app = new App({ name: "t", env });
  app.use(pendingMigrations(db, { folder: MIGRATIONS, env }));
  app.get("/", (c) => c.text("home"));
  return app;
}

describe("pendingMigrations", () => {
  it("in development names the pending migrations and the command, as HTML and JSON, until they run", async () => {
    const app = appIn("development");
    const page = await get(app);
    expect(page.status).toBe(503);
    const body = await page.text();
    expect(body).toContain("<h1>Pending migrations</h1>");
    expect(body).toContain("migrations/20240101000000_create_widgets.ts");
    expect(body).toContain("migrations/20240102000000_create_parts.ts");
    expect(body).toContain("<code>npx wisent migrate</code>");

    const json = await get(app, { accept: "application/json" });
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({
      error: "2 migrations have not run: npx wisent migrate",
      pendingMigrations: ["20240101000000_create_widgets", "20240102000000_create_parts"],
      command: "npx wisent migrate",
    });

    await migrateUp(db, MIGRATIONS);
    const after = await get(app);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe("home");
    // Once nothing is pending, requests pass without a promise (a synchronous route stays so).
    const next = get(app);
    expect(next).toBeInstanceOf(Response);
    expect(await (next as Response).text()).toBe("home");
  });

  it("never answers in production or test", async () => {
    const fresh = await openDatabase(`sqlite:${join(dir, "other.sqlite")}`);
    try {
      for (const env of ["production", "test"]) {
        const app = new App({ name: "t", env });
        app.use(pendingMigrations(fresh, { folder: MIGRATIONS, env }));
        app.get("/", (c) => c.text("home"));
        expect((await get(app)).status).toBe(200);
      }
    } finally {
      await fresh.close();
    }
  });
});
