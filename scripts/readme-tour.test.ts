import { describe, expect, it } from "vitest";
import { expectsFailure, missingLines, normalise, tourSteps } from "./readme-tour.mjs";

const fence = "```";
const readme = [
  "# App",
  "## The tour",
  fence,
  "$ npx wisent new blog --dev",
  "Created blog (web app, sqlite).",
  fence,
  "### Routing",
  fence,
  "$ npx wisent routes --check",
  fence,
  "## Your first week",
  "### The database",
  fence,
  "$ cat migrations/*_add_summary_to_posts.ts",
  "...",
  "export async function up(db: Queryable): Promise<void> {",
  fence,
  "### The dev server",
  fence,
  "$ npx wisent dev",
  "error: port 3000 is already in use by pid 13429 (node /home/me/blog/node_modules/.bin/wisent dev)",
  fence,
  "```text",
  "GET /nope 404 Not Found in 4.5ms (no route)",
  fence,
  "## One declaration, every API surface",
  fence,
  "$ npx wisent openapi",
  fence,
].join("\n");

describe("tourSteps", () => {
  const steps = tourSteps(readme);

  it("takes the tour up to its first sub-section, then the whole first week, in order", () => {
    expect(steps.map((step) => step.command)).toEqual([
      "npx wisent new blog --dev",
      "cat migrations/*_add_summary_to_posts.ts",
      "npx wisent dev",
    ]);
  });

  it("keeps each command's printed lines but `...`, and no lines of a block without `$ `", () => {
    expect(steps[1]?.expected).toEqual([
      "export async function up(db: Queryable): Promise<void> {",
    ]);
    expect(steps[2]?.expected).toHaveLength(1);
  });

  it("names a missing section", () => {
    expect(() => tourSteps(readme.replace("## Your first week", "## Later"))).toThrow(
      'README.md has no "## Your first week" section',
    );
  });
});

describe("expectsFailure", () => {
  it.each([
    [["error: port 3000 is already in use"], true],
    [["migrated  20261125063700_add_summary_to_posts"], false],
    [[], false],
  ])("%j -> %s", (expected, fails) => {
    expect(expectsFailure({ command: "x", expected })).toBe(fails);
  });
});

describe("normalise", () => {
  it.each([
    [
      "error: port 3000 is already in use by pid 13429 (node /home/me/blog/node_modules/.bin/wisent dev)",
      "error: port 3000 is already in use by pid 977 (node /work/wt/a/blog/node_modules/.bin/wisent dev)",
    ],
    [
      "its file is gone from /home/me/blog/migrations, so",
      "its file is gone from /tmp/x/y/blog/migrations, so",
    ],
  ])("%s matches %s", (printed, real) => {
    expect(missingLines([printed], real)).toEqual([]);
  });

  it("drops the folder of an absolute path, not of a relative path or a URL path", () => {
    expect(
      normalise("/tmp/x/blog/migrations src/templates/home/index.tsx <code>/posts/</code>"),
    ).toBe("<dir>/migrations src/templates/home/index.tsx <code>/posts/</code>");
  });
});
