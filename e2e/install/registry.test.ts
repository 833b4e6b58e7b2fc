/**
 * Slow (minutes): Wisent installed the way a user installs it. The packed `wisent` and
 * `create-wisent` are published to a local Verdaccio registry (scripts/local-registry/, every
 * other package proxied from `npm config get registry`); then, in a temp folder outside the
 * repository, with npm pointed at that registry and its own cache and user config, as a user:
 * `npm create wisent@latest`, `npm ci` on the lock it wrote, the app's tests, a generated
 * resource, migrations, a production build and `wisent start` answering `/up`. Once for a SQLite web app, once for a PostgreSQL
 * API (a fresh database on the local server). Then what goes wrong: a missing native binary, a
 * missing driver, an unreachable registry.
 *
 * Needs the build (`npm run build`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NPM } from "../../scripts/local-registry/index.mjs";
import { type LocalRegistry, registryOfThisCheckout } from "../support/checkout-registry.js";
import { type ServerProcess, startServerProcess } from "../support/server.js";
import { userShell } from "../support/user-shell.js";

const MINUTES = 60_000;
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";
const PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres";

let root: string;
let apps: string;
let registry: LocalRegistry;
/** The user's shell: the registry's npm settings, none of the test process's app settings. */
let shell: ReturnType<typeof userShell>;
const sh: ReturnType<typeof userShell>["sh"] = (...args) => shell.sh(...args);
const ok: ReturnType<typeof userShell>["ok"] = (...args) => shell.ok(...args);

/** `wisent start` in production (the app's own bin, as `npx wisent start` runs it). */
async function startProduction(app: string, env: Record<string, string>): Promise<ServerProcess> {
  return startServerProcess({
    args: [join(app, "node_modules/wisent/bin/wisent.js"), "start"],
    cwd: app,
    env: shell.env({
      GO_ENV: "production",
      NODE_ENV: "production",
      PORT: "0",
      SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
      ...env,
    }),
    timeoutMs: 2 * MINUTES,
  });
}

function psql(sql: string): void {
  execFileSync("psql", [PG_ADMIN, "-v", "ON_ERROR_STOP=1", "-qc", sql], { stdio: "pipe" });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-registry-"));
  apps = join(root, "apps");
  mkdirSync(apps);
  registry = await registryOfThisCheckout(root);
  shell = userShell(registry.env({}));
}, 5 * MINUTES);

afterAll(async () => {
  await registry?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("npm create wisent@latest myapp (SQLite, web)", { timeout: 10 * MINUTES }, () => {
  let app: string;

  it("creates the app and installs it; its tests pass", async () => {
    const created = await ok(NPM, ["create", "wisent@latest", "myapp"], apps);
    expect(created.stdout).toContain("Created myapp (web app, sqlite).");
    expect(created.stdout).toMatch(
      /Next steps:\n {2}cd myapp\n {2}npm run migrate\n {2}npm run dev\n/,
    );
    app = join(apps, "myapp");
    await ok(NPM, ["test"], app);
  });

  it("installs quietly with npm 11: every install script approved (allowScripts)", async (ctx) => {
    const listed = await sh(NPM, ["install-scripts", "ls"], app);
    // npm before 11.x has no install-script policy, and nothing to say about it.
    if (/Unknown command/i.test(listed.stdout + listed.stderr)) ctx.skip();
    expect(listed.stdout + listed.stderr).toContain("No packages with unreviewed install scripts.");
    const again = await ok(NPM, ["install", "--no-audit", "--no-fund"], app);
    expect(again.stdout + again.stderr).not.toMatch(/not yet covered by allowScripts|EBADENGINE/);
  });

  it("installs no server database driver, Redis or mail package", () => {
    for (const name of ["pg", "mysql2", "ioredis", "nodemailer"]) {
      expect(existsSync(join(app, "node_modules", name)), name).toBe(false);
    }
    expect(existsSync(join(app, "node_modules/better-sqlite3"))).toBe(true);
  });

  it("generates a resource, migrates, and its tests pass", async () => {
    await ok(NPX, ["wisent", "g", "r", "widget", "title", "--tests=full"], app);
    const migrated = await ok(NPX, ["wisent", "migrate"], app);
    expect(migrated.stdout).toMatch(/migrated {2}\d+_create_widgets/);
    await ok(NPM, ["test"], app);
  });

  it("builds, and wisent start in production answers GET /up with 200", async () => {
    await ok(NPX, ["wisent", "build"], app, { GO_ENV: "production" });
    const data = join(root, "production.sqlite");
    await ok(NPX, ["wisent", "migrate"], app, {
      GO_ENV: "production",
      DATABASE_URL: `sqlite:${data}`,
    });
    const server = await startProduction(app, { DATABASE_URL: `sqlite:${data}` });
    try {
      expect((await fetch(`${server.url}/up`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it("names the npm command to run when the native SQLite binary is missing", async () => {
    const build = join(app, "node_modules/better-sqlite3/prebuilds");
    renameSync(build, `${build}-aside`);
    try {
      const migrated = await sh(NPX, ["wisent", "migrate"], app);
      expect(migrated.code).toBe(1);
      expect(migrated.stderr).toBe(
        `error: the package better-sqlite3 has no native binary for ${process.platform}-${process.arch} in node_modules (an incomplete install): run \`npm ci\` in the app's folder to install it again\n`,
      );
    } finally {
      renameSync(`${build}-aside`, build);
    }
  });
});

describe("npm create wisent@latest inventory -- --api --db postgres", {
  timeout: 10 * MINUTES,
}, () => {
  const database = `wisent_registry_${process.pid}_${Date.now().toString(36)}`;
  const url = `postgres://postgres@127.0.0.1:5432/${database}`;
  let app: string;

  afterAll(() => {
    for (const name of [database, `${database}_test`, `${database}_production`]) {
      psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });

  it("creates the API with only the PostgreSQL driver; its tests pass", async () => {
    const created = await ok(
      NPM,
      ["create", "wisent@latest", "inventory", "--", "--api", "--db", "postgres"],
      apps,
    );
    expect(created.stdout).toContain("Created inventory (JSON API, postgres).");
    app = join(apps, "inventory");
    // What the Dockerfile's build and CI run: npm ci accepts the lock npm create wrote.
    const ci = await sh(NPM, ["ci", "--no-audit", "--no-fund"], app);
    expect(ci.stderr).not.toMatch(/Missing: .* from lock file/);
    expect(ci.code, ci.stderr).toBe(0);
    expect(existsSync(join(app, "node_modules/pg"))).toBe(true);
    for (const name of ["mysql2", "ioredis", "nodemailer"]) {
      expect(existsSync(join(app, "node_modules", name)), name).toBe(false);
    }
    // The user's step "create the database named in .env", on a database of this test's own.
    writeFileSync(join(app, ".env"), `DATABASE_URL=${url}\n`);
    await ok(NPX, ["wisent", "db", "create"], app);
    await ok(NPM, ["test"], app);
  });

  it("installs quietly with npm 11, the driver too", async (ctx) => {
    const listed = await sh(NPM, ["install-scripts", "ls"], app);
    if (/Unknown command/i.test(listed.stdout + listed.stderr)) ctx.skip();
    expect(listed.stdout + listed.stderr).toContain("No packages with unreviewed install scripts.");
  });

  it("generates a resource, migrates, and its tests pass", async () => {
    await ok(NPX, ["wisent", "g", "r", "widget", "title", "--tests=full"], app);
    await ok(NPX, ["wisent", "migrate"], app);
    await ok(NPM, ["test"], app);
  });

  it("builds, and wisent start in production answers GET /up with 200", async () => {
    const production = { GO_ENV: "production", DATABASE_URL: `${url}_production` };
    await ok(NPX, ["wisent", "build"], app, production);
    await ok(NPX, ["wisent", "db", "create"], app, production);
    await ok(NPX, ["wisent", "migrate"], app, production);
    const server = await startProduction(app, production);
    try {
      expect((await fetch(`${server.url}/up`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it("names the npm install to run when the driver is missing", async () => {
    rmSync(join(app, "node_modules/pg"), { recursive: true });
    const migrated = await sh(NPX, ["wisent", "migrate"], app);
    expect(migrated.code).toBe(1);
    expect(migrated.stderr).toBe(
      "error: the package pg is not installed (needed for a postgres:// DATABASE_URL): run `npm install pg` in the app's folder\n",
    );
  });
});

describe("an unreachable registry", { timeout: 5 * MINUTES }, () => {
  it("fails npm create at once, non-zero, leaving no folder", async () => {
    const offline = await sh(NPM, ["create", "wisent@latest", "offline"], apps, {
      npm_config_registry: "http://127.0.0.1:9/",
      npm_config_cache: join(root, "empty-cache"),
      npm_config_fetch_retries: "0",
    });
    expect(offline.code).not.toBe(0);
    expect(offline.stderr).toMatch(/ECONNREFUSED/);
    expect(existsSync(join(apps, "offline"))).toBe(false);
  });

  it("once create-wisent runs, exits 1 naming the retry, and leaves nothing the retry trips on", async () => {
    // create-wisent is in npm's cache from the apps above; the registry is gone when the app's
    // own npm install asks it for mysql2, which nothing fetched before.
    await registry.stop();
    const argv = ["create", "wisent@latest", "shop", "--", "--db", "mysql"];
    // No retries: npm's default backs off for a minute a request before it gives up.
    const failed = await sh(NPM, argv, apps, {
      npm_config_prefer_offline: "true",
      npm_config_fetch_retries: "0",
    });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).not.toMatch(/Created|Next steps/);
    expect(failed.stderr).toContain(
      "error: shop was not created: npm install failed (its output is above), so shop/ was removed.",
    );
    expect(failed.stderr).toContain(
      "run the same command again: npm create wisent@latest shop -- --db mysql",
    );
    expect(existsSync(join(apps, "shop"))).toBe(false);
  });
});
