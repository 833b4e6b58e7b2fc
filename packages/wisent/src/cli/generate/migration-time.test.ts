import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrationTime } from "./generate-resource.js";

function appWith(...migrations: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "wisent-migration-time-"));
  mkdirSync(join(dir, "migrations"));
  for (const file of migrations) writeFileSync(join(dir, "migrations", file), "");
  return dir;
}

describe("migrationTime", () => {
  const now = new Date(Date.UTC(2026, 10, 22, 9, 49, 22, 500));

  it("is now when the app has no migrations", () => {
    expect(migrationTime(appWith(), now)).toBe(now);
  });

  it("is now when every migration is older", () => {
    expect(migrationTime(appWith("20261122094921_create_widgets.ts"), now)).toBe(now);
  });

  it("comes one second after a migration made in the same second, so a nested child runs after its parent", () => {
    const next = migrationTime(appWith("20261122094922_create_widgets.ts", ".gitkeep"), now);
    expect(next.toISOString()).toBe("2026-11-22T09:49:23.000Z");
  });

  it("comes after a migration dated in the future (a clock that went back)", () => {
    const next = migrationTime(appWith("20270101000000_create_widgets.ts"), now);
    expect(next.toISOString()).toBe("2027-01-01T00:00:01.000Z");
  });
});
