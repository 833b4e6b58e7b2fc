import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../.dependency-cruiser.cjs", import.meta.url));
const DEPCRUISE = fileURLToPath(new URL("../../node_modules/.bin/depcruise", import.meta.url));
const BROKEN = fileURLToPath(new URL("./fixtures/broken/", import.meta.url));

type Violation = { rule: { name: string }; from: string; to: string };

/** Runs `npm run lint`'s import rules over `paths`, from `cwd`, reporting as `output`. */
function depcruise(cwd: string, paths: string[], output: "json" | "err") {
  const run = spawnSync(DEPCRUISE, [...paths, "--config", CONFIG, "--output-type", output], {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  return run;
}

function violations(cwd: string, paths: string[]): Violation[] {
  const { stdout } = depcruise(cwd, paths, "json");
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe("the import rules (.dependency-cruiser.cjs)", () => {
  it("fail on a tree that breaks each of them, and only where it breaks them", () => {
    const paths = ["packages", "e2e", "elsewhere"];
    const src = "packages/wisent/src/";
    // As `npm run lint` reports: it fails.
    expect(depcruise(BROKEN, paths, "err").status).not.toBe(0);
    expect(
      violations(BROKEN, paths)
        .map((v) => [v.rule.name, v.from, v.to])
        .sort(),
    ).toEqual(
      [
        // naming is the lowest layer; app the second highest.
        ["layer-foundation", `${src}naming/words.ts`, `${src}app/app.ts`],
        // The kernel sits below app (and below middleware, which may import it: gzip.ts).
        ["layer-kernel", `${src}kernel/dispatch.ts`, `${src}app/app.ts`],
        // http sits below middleware.
        ["layer-http", `${src}http/respond.ts`, `${src}middleware/gzip/gzip.ts`],
        // http sits below data: it renders coded errors and knows no database.
        ["layer-http", `${src}http/error-response.ts`, `${src}data/model.ts`],
        // app sits below auth: authentication hands the routing DSL its guards.
        ["layer-app", `${src}app/group.ts`, `${src}auth/guard.ts`],
        // A cycle made of a value import and a type-only one.
        ["no-circular", `${src}data/model.ts`, `${src}data/statements.ts`],
        ["no-test-code-in-src", `${src}data/seeds.ts`, `${src}data/test-support/seed.ts`],
        ["no-app-copies", "e2e/uses-copy.ts", "elsewhere/shop-copy/src/actions/widgets.ts"],
        // hono/dist/... outside the kernel (kernel/hono-internals.ts may, and is not listed).
        ["no-library-deep-imports", `${src}data/internals.ts`, "hono/dist/cjs/hono-base.js"],
        [
          "no-library-internals",
          `${src}data/reach.ts`,
          "../../../../node_modules/kysely/dist/esm/kysely.js",
        ],
      ].sort(),
    );
  }, 120_000);

  it("pass on the real tree", () => {
    expect(violations(ROOT, ["packages/wisent/src", "e2e", "bench", "scripts"])).toEqual([]);
  }, 120_000);
});
