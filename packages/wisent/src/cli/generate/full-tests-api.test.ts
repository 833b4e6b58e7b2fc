/**
 * Slow: an API app made by `wisent new --api --dev` that asks for full tests in its package.json;
 * its generated JSON and XML tests (the JSON ones through the typed client) type-check and pass.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inApp, migrateAndTest, newApp, SLOW, tool, wisent } from "./test-support/generated-app.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-full-tests-api-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('"wisent": { "tests": "full" } in an API app\'s package.json', { timeout: SLOW }, () => {
  it("generates passing JSON and XML tests by default, nested too", async () => {
    const app = await newApp(root, "inventory", ["--api"]);
    const pkgFile = join(app, "package.json");
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
    writeFileSync(pkgFile, JSON.stringify({ ...pkg, wisent: { tests: "full" } }, null, 2));
    await wisent(app, ["g", "r", "widget", "title", "count:int", "price:decimal{10,2}"]);
    await wisent(app, ["g", "r", "part", "label", "due:date", "--parent", "widget"]);
    expect(readFileSync(join(app, "src/actions/parts.test.ts"), "utf8")).not.toContain(
      "Not Implemented!",
    );
    const tsc = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(tsc.output).toBe("");
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+\d+ passed/);
    expect(result.output).not.toMatch(/failed/);
  });
});
