import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateMigration } from "./generate-migration.js";

const app = mkdtempSync(join(tmpdir(), "wisent-g-migration-"));
mkdirSync(join(app, "src"));
writeFileSync(join(app, "src/app.ts"), "");
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe("an empty migration", () => {
  it("imports Queryable from wisent/db, where the helpers its hint names are", () => {
    const { contents } = generateMigration(app, {
      name: "index_posts_by_slug",
      columns: [],
      dryRun: true,
      now: new Date("2024-05-01T12:30:00Z"),
    });
    expect(contents).toContain('import type { Queryable } from "wisent/db";');
    expect(contents).not.toContain('from "wisent";');
    expect(contents).toContain('from "wisent/db", beside Queryable');
  });
});
