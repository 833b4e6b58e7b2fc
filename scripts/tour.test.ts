import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  APPS,
  expectsFailure,
  GUIDE,
  missingLines,
  newestStamp,
  normalise,
  tourSteps,
} from "./tour.mjs";

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));

const fence = "```";
const guide = [
  "# Getting started",
  "## The tour",
  fence,
  "$ npx wisent new blog --dev",
  "Created blog (web app, sqlite).",
  fence,
  "### Build it",
  fence,
  "$ npx wisent build",
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
  "## Where next",
  fence,
  "$ npx wisent openapi",
  fence,
].join("\n");

describe("tourSteps", () => {
  const steps = tourSteps(guide);

  it("takes the whole tour, then the whole first week, in order, and nothing after them", () => {
    expect(steps.map((step) => step.command)).toEqual([
      "npx wisent new blog --dev",
      "npx wisent build",
      "cat migrations/*_add_summary_to_posts.ts",
      "npx wisent dev",
    ]);
  });

  it("keeps each command's printed lines but `...`, and no lines of a block without `$ `", () => {
    expect(steps[2]?.expected).toEqual([
      "export async function up(db: Queryable): Promise<void> {",
    ]);
    expect(steps[3]?.expected).toHaveLength(1);
  });

  it("names a missing section", () => {
    expect(() => tourSteps(guide.replace("## Your first week", "## Later"))).toThrow(
      'docs/guides/getting-started.md has no "## Your first week" section',
    );
  });

  it("joins a command continued with a trailing backslash, as a shell does", () => {
    const continued = [
      "# Guide",
      "## The tour",
      fence,
      "$ curl -s localhost:3000 \\",
      "    -w x",
      "x",
      fence,
    ];
    expect(tourSteps([...continued, "## Your first week", ""].join("\n"))).toEqual([
      { command: "curl -s localhost:3000 -w x", expected: ["x"] },
    ]);
  });
});

describe("the getting-started guide", () => {
  const steps = tourSteps(readFileSync(join(repositoryRoot, GUIDE), "utf8"));

  it("has the tour's and the first week's commands, from npm ci to the error page", () => {
    expect(steps[0]?.command).toBe("npm ci && npm run demo");
    expect(steps.map((step) => step.command)).toContain(
      "npx wisent new readinglist --dev --db postgres",
    );
    expect(steps.at(-1)?.command).toMatch(/boom\.html$/);
  });

  it("makes only the apps the runner removes afterwards", () => {
    // A `wisent new` the guide shows refused makes nothing.
    const made = steps.flatMap((step) =>
      expectsFailure(step)
        ? []
        : (/(?:^|&& )npx wisent new (\S+)/.exec(step.command)?.slice(1) ?? []),
    );
    expect(made).toEqual([...APPS]);
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

describe("newestStamp", () => {
  it("reads the newest migration stamp a generator printed, in seconds; 0 when none", () => {
    const output = [
      "      create  migrations/20261129123149_create_tags.ts",
      "      create  migrations/20261129123150_create_labels.ts",
      "next: wisent migrate",
    ].join("\n");
    expect(newestStamp(output)).toBe(Date.UTC(2026, 10, 29, 12, 31, 50) / 1000);
    expect(newestStamp("      create  src/models/tag.ts")).toBe(0);
  });
});
