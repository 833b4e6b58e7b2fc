import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./error-codes.js";
import { SRC } from "./test-support/own-sources.js";

/** Every `.ts`/`.tsx`/`.md` file below `dir`, tests and their fixtures included. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (e) => e.isFile() && /\.(tsx?|md)$/.test(e.name) && !e.parentPath.includes("node_modules"),
    )
    .map((e) => join(e.parentPath, e.name));
}

describe("ERROR_CODES", () => {
  it("cites no code that does not exist (in its comments, meanings and fixes)", () => {
    const source = readFileSync(new URL("./error-codes.ts", import.meta.url), "utf8");
    const cited = new Set(source.match(/\bE_[A-Z][A-Z_]*\b/g));
    expect(cited.size).toBeGreaterThan(Object.keys(ERROR_CODES).length - 1);
    const missing = [...cited].filter((code) => !(code in ERROR_CODES));
    expect(missing).toEqual([]);
  });

  it("has a row for every code the sources and the docs name (thrown, checked or cited)", () => {
    const docs = join(SRC, "../../../docs");
    const named = new Map<string, string>();
    for (const file of [...filesBelow(SRC), ...filesBelow(docs)]) {
      for (const code of readFileSync(file, "utf8").match(/\bE_[A-Z][A-Z0-9_]*\b/g) ?? []) {
        if (!(code in ERROR_CODES)) named.set(code, file);
      }
    }
    expect([...named]).toEqual([]);
  });

  it("gives every status a request can answer with as an HTTP error status", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const status = (info as { status?: number }).status;
      if (status !== undefined) expect([code, status >= 400 && status < 600]).toEqual([code, true]);
    }
  });
});
