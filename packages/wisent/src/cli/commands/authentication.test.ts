import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureApp, runCommand, tree } from "../generate/test-support/fixture-app.js";
import { destroy, generate } from "./authentication.js";
import { run as generateResource } from "./generate.js";

const apps: string[] = [];
afterEach(() => {
  for (const dir of apps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function app(kind: "web" | "api") {
  const dir = fixtureApp(kind);
  apps.push(dir);
  return dir;
}

describe("wisent generate authentication / destroy authentication", () => {
  it.each([
    ["web", "src/actions/sessions.tsx"],
    ["api", "src/actions/tokens.ts"],
  ] as const)("in a %s app: generate, then d auth -y gives the app back", async (kind, file) => {
    const dir = app(kind);
    const fresh = tree(dir);
    const made = await runCommand(generate, dir, []);
    expect(made.code, made.stderr).toBe(0);
    expect(existsSync(join(dir, file))).toBe(true);
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toContain("app.use(signedInUser);");
    const gone = await runCommand(destroy, dir, ["-y"]);
    expect(gone.code, gone.stderr).toBe(0);
    const after = tree(dir);
    if (kind === "web") {
      // The reset mail is a job: the jobs tables' migration and app.jobs(db) stay (shared).
      const jobs = Object.keys(after).find((p) => /_create_wisent_jobs\.ts$/.test(p))!;
      expect(jobs).toBeDefined();
      delete after[jobs];
      after["src/app.ts"] = after["src/app.ts"]!.replace(/^app\.jobs\(db\);.*\n/m, "");
    }
    expect(after).toEqual(fresh);
  });

  it("answered no to every question, destroy leaves every file", async () => {
    const dir = app("web");
    await runCommand(generate, dir, []);
    const before = tree(dir);
    const { code, stdout } = await runCommand(destroy, dir, [], "n\n".repeat(30));
    expect(code).toBe(0);
    expect(stdout).toContain("remove src/actions/sessions.tsx? (y/n)");
    expect(tree(dir)).toEqual(before);
  });

  it("writes nothing in a dry run", async () => {
    const dir = app("web");
    const fresh = tree(dir);
    const { code, stdout } = await runCommand(generate, dir, ["--dry-run"]);
    expect(code).toBe(0);
    expect(stdout).toContain("create  src/models/user.ts");
    expect(tree(dir)).toEqual(fresh);
  });

  it.each([
    [
      "twice",
      async (dir: string) => void (await runCommand(generate, dir, [])),
      "authentication exists already",
    ],
    [
      "over a user resource's model",
      async (dir: string) => void (await runCommand(generateResource, dir, ["user", "name"])),
      "src/models/user.ts exists already",
    ],
  ])("refuses to run %s, writing nothing", async (_name, before, message) => {
    const dir = app("web");
    await before(dir);
    const snapshot = tree(dir);
    const { code, stderr } = await runCommand(generate, dir, []);
    expect(code).not.toBe(0);
    expect(stderr).toContain(message);
    expect(tree(dir)).toEqual(snapshot);
  });

  it("says when there is nothing to destroy", async () => {
    const { code, stderr } = await runCommand(destroy, app("web"), ["-y"]);
    expect(code).not.toBe(0);
    expect(stderr).toContain("nothing to destroy");
  });
});
