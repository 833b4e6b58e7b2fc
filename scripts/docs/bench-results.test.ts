import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bench = fileURLToPath(new URL("../../bench/", import.meta.url));
const readme = readFileSync(join(bench, "README.md"), "utf8");

/** The suites `npm run bench` runs (bench/run.mjs): the folders with a run.mjs. */
const suites = readdirSync(bench, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(bench, entry.name, "run.mjs")))
  .map((entry) => entry.name);

/** Every results file under bench/ (`<suite>/RESULTS.md`, `load/RESULTS-cold-start.md`, ...). */
const resultsFiles = suites.flatMap((suite) =>
  readdirSync(join(bench, suite))
    .filter((name) => /^RESULTS(-[a-z-]+)?\.md$/.test(name))
    .map((name) => `${suite}/${name}`),
);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as `-`. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");

describe("bench/README.md and the results files", () => {
  it("links every suite's results file, and every results file exists", () => {
    expect(suites).toEqual(expect.arrayContaining(["routing", "http", "load", "upload"]));
    for (const suite of suites) {
      expect(readme, suite).toContain(`(${suite}/RESULTS.md)`);
      expect(readme, suite).toContain(`node bench/${suite}/run.mjs`);
    }
    const linked = [...readme.matchAll(/\]\(([\w-]+\/RESULTS[\w-]*\.md)\)/g)].map((m) => m[1]);
    for (const file of linked) expect(existsSync(join(bench, file!)), file).toBe(true);
    expect(new Set(linked)).toEqual(new Set(resultsFiles));
  });

  it("says how to run each bench and where its figures are, not the figures themselves", () => {
    expect(readme.length).toBeLessThan(16_000);
    for (const file of resultsFiles) {
      const text = readFileSync(join(bench, file), "utf8");
      expect(text, file).toMatch(/^# Results: /);
      expect(text, file).toMatch(/The latest: /);
    }
  });

  it("has a heading for every anchor its table links", () => {
    const anchors = new Set(
      [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((match) => slug(match[1]!.trim())),
    );
    const linked = [...readme.matchAll(/\]\(#([\w-]+)\)/g)].map((match) => match[1]!);
    expect(linked.length).toBeGreaterThan(5);
    for (const anchor of linked) expect(anchors, anchor).toContain(anchor);
  });
});
