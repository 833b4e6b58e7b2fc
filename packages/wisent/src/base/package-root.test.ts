import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { packageRoot } from "./package-root.js";

describe("packageRoot", () => {
  it("is the folder of wisent's package.json", () => {
    const root = packageRoot();
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).name).toBe("wisent");
  });

  it("lets the built bundle's chunks reach the package's bin (the test database's CLI run)", async () => {
    // npm run build puts this module into a chunk two folders deeper than src/base.
    const bundle = join(packageRoot(), "dist/bundle/testing/index.js");
    const { prepareTestDatabase } = await import(pathToFileURL(bundle).href);
    const notAnApp = mkdtempSync(join(tmpdir(), "wisent-not-an-app-"));
    try {
      const failure = await prepareTestDatabase(notAnApp).then(
        () => "resolved",
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/wisent db prepare/);
      expect(failure).not.toMatch(/Cannot find module/);
    } finally {
      rmSync(notAnApp, { recursive: true, force: true });
    }
  });
});
