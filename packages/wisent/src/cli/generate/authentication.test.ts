/**
 * Slow: `wisent generate authentication` in real apps made by `wisent new --dev` (web and API): each must
 * type-check, lint clean and pass its generated tests (sign-up, sign-in, sign-out, reset, email
 * verification and the account page, rate limits, no account discovery) on SQLite and PostgreSQL; `wisent routes` shows the routes and
 * their helpers; `wisent destroy authentication -y` gives back the app byte for byte, but for the
 * jobs tables' migration and `app.jobs(db)` of a web app (its reset mail is a job; other jobs
 * share them).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { tree } from "./test-support/fixture-app.js";
import {
  expectTypeChecksAndLints,
  migrateAndTest,
  newApp,
  SLOW,
  wisent,
} from "./test-support/generated-app.js";

/** Runs `body` with a fresh PostgreSQL database's URL, dropped afterwards. */
async function withPostgres(body: (url: string) => Promise<void>): Promise<void> {
  const server = "postgres://postgres@127.0.0.1:5432";
  const name = `wisent_auth_${process.pid}_${Date.now()}`;
  const admin = await import("../../data/database.js");
  const db = admin.database(`${server}/test`);
  const { sql } = await import("kysely");
  await sql.raw(`create database ${name}`).execute(db.kysely);
  try {
    await body(`${server}/${name}`);
  } finally {
    await sql.raw(`drop database ${name}`).execute(db.kysely);
    await db.close();
  }
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
  app = await newApp(root, "club");
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
      "src/actions/verifications.tsx",
      "src/templates/sessions/new.tsx",
      "src/templates/sessions/verification-banner.tsx",
      "src/templates/passwords/edit.tsx",
      "src/templates/registrations/edit.tsx",
      "src/templates/verifications/show.tsx",
      "src/locales/authentication.en-US.json",
      "src/actions/sessions.test.ts",
      "src/actions/passwords.test.ts",
      "src/actions/verifications.test.ts",
    ]) {
      expect(existsSync(join(app, path)), path).toBe(true);
    }
    expect(readFileSync(join(app, "src/app.ts"), "utf8")).toContain("app.use(signedInUser);");
    const layout = readFileSync(join(app, "src/templates/layout.tsx"), "utf8");
    expect(layout).toContain("<AccountLinks />");
    expect(layout).toMatch(/<VerificationBanner \/>\s*\{children\}/);
  });

  it("gives the users a verified email: the columns, and one option saying what an unverified account may do", () => {
    const migration = Object.keys(sourceTree(app)).find((p) => /_create_users\.ts$/.test(p))!;
    const columns = readFileSync(join(app, migration), "utf8");
    expect(columns).toContain('t.timestamp("email_verified_at").nullable();');
    expect(columns).toContain('t.string("unconfirmed_email").nullable();');
    expect(readFileSync(join(app, "src/authentication.ts"), "utf8")).toContain(
      "export const emailVerification = { requiredToSignIn: false };",
    );
  });

  it("adds nodemailer, which the reset mail needs in production, to the app's dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const wisentPkg = JSON.parse(
      readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as { peerDependencies: Record<string, string> };
    expect(pkg.dependencies.nodemailer).toBe(wisentPkg.peerDependencies.nodemailer);
    expect(Object.keys(pkg.dependencies)).toEqual(Object.keys(pkg.dependencies).sort());
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
      ["GET", "/registration/edit", "editRegistrationPath"],
      ["PUT", "/registration", "registrationPath"],
      ["GET", "/verifications/new", "newVerificationsPath"],
      ["POST", "/verifications", "verificationsPath"],
      ["GET", "/verifications/{verification_id}", "verificationPath"],
      ["PUT", "/verifications/{verification_id}", "verificationPath"],
    ] as const) {
      const row = `${method}\\s*\\|[^|]*\\|\\s*${path.replace(/[{}]/g, "\\$&")}/?\\s*\\|[^|]*\\|\\s*${helper}\\s`;
      expect(routes).toMatch(new RegExp(row));
    }
  });

  it("type-checks and lints clean", async () => {
    await expectTypeChecksAndLints(app);
  });

  it("passes its generated tests on SQLite", async () => {
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+51 passed/);
  });

  it("passes its generated tests on PostgreSQL", async () => {
    await withPostgres(async (url) => {
      const result = await migrateAndTest(app, { DATABASE_URL: url });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/Tests\s+51 passed/);
    });
  });

  it("sends the reset mail through a job, with the jobs tables' migration and app.jobs(db)", () => {
    const source = readFileSync(join(app, "src/app.ts"), "utf8");
    expect(source).toContain("app.jobs(db);");
    const passwords = readFileSync(join(app, "src/actions/passwords.tsx"), "utf8");
    expect(passwords).toContain(
      "await deliverLater(c.tx(), message, { deliver: user !== undefined });",
    );
    expect(passwords).not.toContain("setImmediate");
    expect(
      Object.keys(sourceTree(app)).filter((p) => /_create_wisent_jobs\.ts$/.test(p)),
    ).toHaveLength(1);
  });

  it("is undone by wisent destroy authentication -y, byte for byte but the jobs tables", async () => {
    await wisent(app, ["destroy", "authentication", "-y"]);
    const after = sourceTree(app);
    const jobsMigration = Object.keys(after).find((p) => /_create_wisent_jobs\.ts$/.test(p));
    expect(jobsMigration).toBeDefined();
    const { [jobsMigration!]: _, ...rest } = after;
    expect({
      ...rest,
      "src/app.ts": rest["src/app.ts"]!.replace(/^app\.jobs\(db\);.*\n/m, ""),
    }).toEqual(before);
  });
});

describe("wisent generate authentication in an API app", { timeout: SLOW }, () => {
  let api: string;
  let fresh: Record<string, string>;
  beforeAll(async () => {
    api = await newApp(root, "inventory", ["--api"]);
    fresh = sourceTree(api);
    await wisent(api, ["g", "auth"]);
  }, SLOW);

  it("generates access tokens: no templates, no sessions, no mail", async () => {
    expect(existsSync(join(api, "src/actions/tokens.ts"))).toBe(true);
    expect(existsSync(join(api, "src/actions/verifications.tsx"))).toBe(false);
    expect(readFileSync(join(api, "src/models/user.ts"), "utf8")).not.toContain(
      "email_verified_at",
    );
    expect(readFileSync(join(api, "package.json"), "utf8")).not.toContain("nodemailer");
    expect(existsSync(join(api, "src/templates"))).toBe(false);
    const routes = await wisent(api, ["routes"]);
    expect(routes).toMatch(/POST\s*\|[^|]*\|\s*\/tokens\/?\s/);
    expect(routes).toMatch(/DELETE\s*\|[^|]*\|\s*\/tokens\/current\/?\s/);
  });

  it("type-checks, lints clean and passes its tests on SQLite and PostgreSQL", async () => {
    await expectTypeChecksAndLints(api);
    const sqlite = await migrateAndTest(api);
    expect(sqlite.code, sqlite.output).toBe(0);
    expect(sqlite.output).toMatch(/Tests\s+15 passed/);
    await withPostgres(async (url) => {
      const result = await migrateAndTest(api, { DATABASE_URL: url });
      expect(result.code, result.output).toBe(0);
    });
  });

  it("is undone by wisent d auth -y, byte for byte", async () => {
    await wisent(api, ["d", "auth", "-y"]);
    expect(sourceTree(api)).toEqual(fresh);
  });
});
