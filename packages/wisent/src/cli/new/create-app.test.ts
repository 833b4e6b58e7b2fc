/**
 * `wisent new` and `npm create wisent` (one code, {@link createApp}): the driver a database needs,
 * the command each names, and a failed `npm install` (an unreachable registry): exit 1, what
 * failed and how to retry, no "Created ... Next steps", and nothing left that the retry trips on.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";
import { createApp, NPM_CREATE, WISENT_NEW } from "./create-app.js";
import { wisentPackage } from "./versions.js";

const root = mkdtempSync(join(tmpdir(), "wisent-create-app-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** npm pointed at a port nothing listens on, with its own empty cache: it fails at once. */
const UNREACHABLE = cleanEnv({
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_cache: join(root, "npm-cache"),
  npm_config_fetch_retries: "0",
  npm_config_fetch_timeout: "5000",
  npm_config_update_notifier: "false",
});

async function create(argv: string[], command = WISENT_NEW, env = cleanEnv()) {
  const { io, stdout, stderr } = memoryIO({ cwd: root, env });
  const code = await createApp(argv, io, command);
  return { code, stdout: stdout(), stderr: stderr() };
}

function dependencies(app: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, app, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  return pkg.dependencies;
}

describe("the database driver of a new app", () => {
  const peers = wisentPackage().peerDependencies;

  it.each([
    ["sqlite", {}],
    ["postgres", { pg: peers.pg }],
    ["mysql", { mysql2: peers.mysql2 }],
  ])("--db %s adds only the driver it needs", async (db, driver) => {
    const app = `drivers_${db}`;
    const made = await create([app, "--db", db, "--skip-install", "--skip-git"]);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const deps = dependencies(app);
    expect(Object.keys(deps).sort()).toEqual(
      ["hono", "wisent", "zod", ...Object.keys(driver)].sort(),
    );
    expect(deps).toMatchObject(driver);
  });
});

describe("npm create wisent", () => {
  it("names itself, with npm's -- before the options, and has no --dev", async () => {
    const help = await create(["--help"], NPM_CREATE);
    expect(help.stdout).toContain(
      "npm create wisent@latest <path> -- [--api] [--db sqlite|postgres|mysql] [--skip-install] [--skip-git] [-y]\n",
    );
    expect(help.stdout).not.toContain("--dev");
    const dev = await create(["devapp", "--dev"], NPM_CREATE);
    expect(dev.code).toBe(2);
    expect(dev.stderr).toContain("--dev");
  });
});

describe.each([
  ["wisent new", WISENT_NEW],
  ["npm create wisent", NPM_CREATE],
])("%s -y / --yes", (_label, command) => {
  it.each(["--yes", "-y"])("accepts %s, and its help says no question is asked", async (flag) => {
    const app = `yes_${command.dev ? "new" : "create"}_${flag.replace(/-/g, "")}`;
    const made = await create([app, flag, "--skip-install", "--skip-git"], command);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    expect(existsSync(join(root, app, "package.json"))).toBe(true);
    const help = await create(["--help"], command);
    expect(help.stdout).toMatch(
      /-y, --yes +accepted, and changes nothing: no question is ever asked/,
    );
    expect(help.stdout).toContain("It asks no questions");
  });
});

describe.each([
  ["wisent new", WISENT_NEW, "wisent new"],
  ["npm create wisent", NPM_CREATE, "npm create wisent@latest"],
])("%s when npm install fails", { timeout: 120_000 }, (_label, command, name) => {
  it("exits 1 saying what failed and how to retry, and removes the folder it made", async () => {
    const app = `offline_${command.dev ? "new" : "create"}`;
    const failed = await create([app, "--api", "--skip-git"], command, UNREACHABLE);
    expect(failed.code).toBe(1);
    expect(failed.stdout).not.toMatch(/Created|Next steps/);
    const dashes = command.optionsAfter ? `${command.optionsAfter} ` : "";
    expect(failed.stderr).toContain(
      `error: ${app} was not created: npm install failed (its output is above), so ${app}/ was removed.`,
    );
    expect(failed.stderr).toContain(
      `run the same command again: ${name} ${app} ${dashes}--api --skip-git`,
    );
    expect(failed.stdout + failed.stderr).toContain(
      `or create it without installing: ${name} ${app} ${dashes}--api --skip-git --skip-install`,
    );
    expect(existsSync(join(root, app))).toBe(false);

    // The retry is not refused by anything the failure left.
    const retried = await create([app, "--api", "--skip-git", "--skip-install"], command);
    expect(retried.stderr).toBe("");
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain(`Created ${app} (JSON API, sqlite).`);
  });

  it("empties a folder that was there (empty) before, and keeps the folder", async () => {
    const app = `given_${command.dev ? "new" : "create"}`;
    mkdirSync(join(root, app));
    const failed = await create([app, "--skip-git"], command, UNREACHABLE);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`so ${app}/ was emptied again.`);
    expect(readdirSync(join(root, app))).toEqual([]);
  });
});
