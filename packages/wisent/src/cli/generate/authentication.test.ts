/**
 * Slow: `wisent generate authentication` in a real app made by `wisent new --dev`: the app must
 * type-check, lint clean and pass its generated tests (sign-up, sign-in, sign-out, reset, rate
 * limits, no account discovery) on SQLite and PostgreSQL; `wisent routes` shows the routes and
 * their helpers; `wisent destroy authentication -y` gives back the app byte for byte.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";
import { tree } from "./test-support/fixture-app.js";

const run = promisify(execFile);
const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const SLOW = 300_000;
const tool = {
  tsc: join(REPO, "node_modules/typescript/bin/tsc"),
  biome: join(REPO, "node_modules/@biomejs/biome/bin/biome"),
  vitest: join(REPO, "node_modules/vitest/vitest.mjs"),
};

async function inApp(dir: string, file: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], {
      cwd: dir,
      env: cleanEnv(env),
      maxBuffer: 10 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

async function wisent(dir: string, args: string[]): Promise<string> {
  const { io, stdout, stderr } = memoryIO({ cwd: dir });
  const code = await runCli(args, io);
  expect(code, stdout() + stderr()).toBe(0);
  return stdout();
}

/** The app's own files: no databases, no development secret, no build made by `wisent migrate`. */
function sourceTree(dir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree(dir)).filter(
      ([path]) => !/^(db\/.*\.sqlite.*|tmp\/.*|dist\/.*)$/.test(path),
    ),
  );
}

let root: string;
let app: string;
let before: Record<string, string>;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-auth-"));
  await wisent(root, ["new", "club", "--dev", "--skip-install"]);
  app = join(root, "club");
  symlinkSync(join(REPO, "node_modules"), join(app, "node_modules"), "dir");
  before = sourceTree(app);
  await wisent(app, ["g", "auth"]);
}, SLOW);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("wisent generate authentication in a web app", { timeout: SLOW }, () => {
  it("writes the model, migration, handlers, templates, locales and tests", () => {
    for (const path of [
      "src/models/user.ts",
      "src/authentication.ts",
      "src/actions/sessions.tsx",
      "src/actions/registrations.tsx",
      "src/actions/passwords.tsx",
      "src/templates/sessions/new.tsx",
      "src/templates/passwords/edit.tsx",
      "src/locales/authentication.en-US.json",
      "src/actions/sessions.test.ts",
      "src/actions/passwords.test.ts",
    ]) {
      expect(existsSync(join(app, path)), path).toBe(true);
    }
    expect(readFileSync(join(app, "src/app.ts"), "utf8")).toContain("app.use(signedInUser);");
    expect(readFileSync(join(app, "src/templates/layout.tsx"), "utf8")).toContain(
      "<AccountLinks />",
    );
  });

  it("refuses to run twice, and in an app without src/app.ts", async () => {
    const { io, stderr } = memoryIO({ cwd: app });
    expect(await runCli(["g", "auth"], io)).not.toBe(0);
    expect(stderr()).toContain("authentication exists already");
  });

  it("shows the routes and their helpers in wisent routes", async () => {
    const routes = await wisent(app, ["routes"]);
    for (const [method, path, helper] of [
      ["GET", "/session/new", "newSessionPath"],
      ["POST", "/session", "sessionPath"],
      ["DELETE", "/session", "sessionPath"],
      ["GET", "/registration/new", "newRegistrationPath"],
      ["POST", "/registration", "registrationPath"],
      ["GET", "/passwords/new", "newPasswordsPath"],
      ["POST", "/passwords", "passwordsPath"],
      ["GET", "/passwords/{password_id}/edit", "editPasswordPath"],
      ["PUT", "/passwords/{password_id}", "passwordPath"],
    ]) {
      const row = `${method}\\s*\\|[^|]*\\|\\s*${path.replace(/[{}]/g, "\\$&")}/?\\s*\\|[^|]*\\|\\s*${helper}\\s`;
      expect(routes).toMatch(new RegExp(row));
    }
  });

  it("type-checks and lints clean", async () => {
    const tsc = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(tsc.output).toBe("");
    const biome = await inApp(app, tool.biome, ["check", "."]);
    expect(biome.code, biome.output).toBe(0);
  });

  it("passes its generated tests on SQLite", async () => {
    const migrate = await inApp(app, BIN, ["migrate"], { GO_ENV: "test" });
    expect(migrate.code, migrate.output).toBe(0);
    const result = await inApp(app, tool.vitest, ["run"]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toMatch(/failed|skipped/);
  });

  it("passes its generated tests on PostgreSQL", async () => {
    const server = "postgres://postgres@127.0.0.1:5432";
    const name = `wisent_auth_${process.pid}_${Date.now()}`;
    const admin = await import("../../data/database.js");
    const db = admin.database(`${server}/test`);
    const { sql } = await import("kysely");
    await sql.raw(`create database ${name}`).execute(db.kysely);
    try {
      const env = { DATABASE_URL: `${server}/${name}` };
      const migrate = await inApp(app, BIN, ["migrate"], { GO_ENV: "test", ...env });
      expect(migrate.code, migrate.output).toBe(0);
      const result = await inApp(app, tool.vitest, ["run"], env);
      expect(result.code, result.output).toBe(0);
    } finally {
      await sql.raw(`drop database ${name}`).execute(db.kysely);
      await db.close();
    }
  });

  it("is undone by wisent destroy authentication -y, byte for byte", async () => {
    await wisent(app, ["destroy", "authentication", "-y"]);
    expect(sourceTree(app)).toEqual(before);
  });
});
