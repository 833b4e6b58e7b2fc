import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "./usage-error.js";

/** What `generate resource` writes as tests: failing stubs (the default, as Buffalo's) or passing tests. */
export type TestStyle = "stubs" | "full";

const STYLES: readonly TestStyle[] = ["stubs", "full"];

/**
 * The test style asked for: `--tests=<style>`, else the app's default in its package.json
 * (`"wisent": { "tests": "full" }`), else `stubs`. A bad value is a usage error naming where it
 * was written.
 *
 * @example
 * testStyle("/path/to/shop", undefined); // "full" when package.json says { "wisent": { "tests": "full" } }
 */
export function testStyle(appDir: string, flag: string | undefined): TestStyle {
  if (flag !== undefined) return checked(flag, "--tests");
  const file = join(appDir, "package.json");
  if (!existsSync(file)) return "stubs";
  let pkg: { wisent?: { tests?: unknown } };
  try {
    pkg = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return "stubs";
  }
  const setting = pkg.wisent?.tests;
  return setting === undefined ? "stubs" : checked(setting, 'package.json "wisent.tests"');
}

function checked(value: unknown, where: string): TestStyle {
  if (STYLES.includes(value as TestStyle)) return value as TestStyle;
  throw new UsageError(`${where}: ${JSON.stringify(value)} is not a test style: use stubs or full`);
}
