/**
 * `wisent generate authentication` in a real browser: a fresh app made by `wisent new`, with
 * authentication generated and migrated, served by `wisent start` and driven by playwright-core
 * in the machine's (or the npm package's) Chromium. Signs up, signs out, signs in again (coming
 * back to the page that asked), signs out with JavaScript off, and checks that the password never
 * reached the server's log.
 * Skipped only with WISENT_SKIP_BROWSER=1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserTestsSkipped, launchChromium, SKIP_BROWSER_ENV } from "../support/chromium.js";
import { type ServerProcess, startWisent } from "../support/server.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(repo, "packages/wisent/dist/cli/main.js");
const PASSWORD = "a browser-typed passphrase";
const EMAIL = "ada@example.com";

let root = "";
let server: ServerProcess | undefined;
let browser: Browser | undefined;
let base = "";
const problems: string[] = [];

function wisent(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const done = spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: "utf8" });
  if (done.status !== 0) throw new Error(`wisent ${args.join(" ")}: ${done.stdout}${done.stderr}`);
}

async function page(): Promise<Page> {
  const p = await browser!.newPage();
  p.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  p.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource"))
      problems.push(m.text());
  });
  return p;
}

const run = browserTestsSkipped() ? describe.skip : describe;
if (browserTestsSkipped()) console.warn(`skipping the browser tests: ${SKIP_BROWSER_ENV}=1`);

run("generated authentication in Chromium", () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "wisent-auth-browser-"));
    wisent(root, ["new", "club", "--dev", "--skip-install"]);
    const app = join(root, "club");
    symlinkSync(join(repo, "node_modules"), join(app, "node_modules"), "dir");
    wisent(app, ["generate", "authentication"]);
    const env = {
      ...process.env,
      GO_ENV: "development",
      DATABASE_URL: `sqlite:${join(root, "club.sqlite")}`,
    };
    delete env.NODE_ENV;
    wisent(app, ["migrate"], env);
    server = await startWisent(app, { cli, env: { ...env, NODE_ENV: undefined } });
    base = server.url;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("signs up, signs out and signs in again, back on the page that asked", async () => {
    const p = await page();
    await p.goto(`${base}/`);
    await p.getByRole("link", { name: "Sign up" }).first().click();
    await p.getByLabel("Email").fill(EMAIL);
    await p.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await p.getByLabel("Password confirmation").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign up" }).click();
    await p.waitForSelector("text=Welcome! Your account is ready.");
    expect(await p.textContent("nav")).toContain(EMAIL);

    await p.getByRole("button", { name: "Sign out" }).first().click();
    await p.waitForSelector("text=Signed out.");
    expect(new URL(p.url()).pathname).toBe("/session/new");
    expect(await p.textContent("nav")).not.toContain(EMAIL);

    // The account page asks for sign-in, and is where the sign-in leads back to (kept in the
    // session, not in the URL).
    await p.goto(`${base}/registration`);
    expect(new URL(p.url()).pathname).toBe("/session/new");
    expect(new URL(p.url()).search).toBe("");
    await p.getByLabel("Email").fill(EMAIL);
    await p.getByLabel("Password").fill("not the passphrase");
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.waitForSelector("text=Try another email address or password.");
    await p.getByLabel("Password").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.waitForSelector("text=Signed in.");
    expect(new URL(p.url()).pathname).toBe("/registration");
    expect(await p.textContent("main")).toContain(EMAIL);
    await p.close();
    expect(problems).toEqual([]);
  });

  it("signs out with JavaScript off (the button is a form, not a data-method link)", async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();
    await p.goto(`${base}/session/new`);
    await p.getByLabel("Email").fill(EMAIL);
    await p.getByLabel("Password").fill(PASSWORD);
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.waitForSelector("text=Signed in.");
    await p.goto(`${base}/registration`);
    await p.locator("main").getByRole("button", { name: "Sign out" }).click();
    await p.waitForSelector("text=Signed out.");
    await p.goto(`${base}/registration`);
    expect(new URL(p.url()).pathname).toBe("/session/new");
    await context.close();
  });

  it("writes no password to the server's log", () => {
    const log = server!.output();
    expect(log).toContain("/session");
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(encodeURIComponent(PASSWORD));
  });
});
