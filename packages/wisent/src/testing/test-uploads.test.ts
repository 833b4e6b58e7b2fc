import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeTestUploads } from "./test-database.js";

const saved = process.env.STORAGE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.STORAGE_URL;
  else process.env.STORAGE_URL = saved;
});

describe("removeTestUploads", () => {
  it("empties the test environment's own folder, never a storage STORAGE_URL names", async () => {
    const app = mkdtempSync(join(tmpdir(), "wisent-test-uploads-"));
    try {
      for (const folder of ["tmp/test-storage", "storage", "uploads"]) {
        mkdirSync(join(app, folder), { recursive: true });
        writeFileSync(join(app, folder, "cat.png"), "png");
      }
      delete process.env.STORAGE_URL;
      await removeTestUploads(app);
      expect(existsSync(join(app, "tmp/test-storage"))).toBe(false);
      expect(existsSync(join(app, "storage/cat.png"))).toBe(true);
      mkdirSync(join(app, "tmp/test-storage"), { recursive: true });
      process.env.STORAGE_URL = "file:uploads";
      await removeTestUploads(app);
      expect(existsSync(join(app, "uploads/cat.png"))).toBe(true);
      expect(existsSync(join(app, "tmp/test-storage"))).toBe(true);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
