/**
 * Live pages in Chromium on an app made as a user makes it: `wisent new` with this checkout,
 * `wisent g auth`, then three live resources: notes (`--live`, owned by the signed-in user who
 * makes them), widgets (`--public --live`: every page refreshes itself) and lamps (`--public
 * --live`, switched by hand to targeted rows, `live: { row: Row }`).
 *
 * - Owned: Ada's second window follows her create, edit and destroy without a reload; Bob,
 *   watching his own list, never sees her note (his stream is his own: nothing reaches it).
 * - A destroyed record's open page goes to the list and says why, instead of refreshing into
 *   a 404.
 * - Targeted rows: the other page's row appears, changes and disappears without the page being
 *   fetched again, and the Destroy button of a row that arrived works (the reader's own CSRF
 *   token).
 * - Across processes: the watching page served by one `wisent start`, the write made through
 *   another, on one PostgreSQL database (LIVE_URL: LISTEN/NOTIFY) and on Redis pub/sub.
 * Skipped only with WISENT_SKIP_BROWSER=1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserTestsSkipped, launchChromium, SKIP_BROWSER_ENV } from "../support/chromium.js";
import { type ServerProcess, startWisent, WISENT_CLI } from "../support/server.js";

const run = browserTestsSkipped() ? describe.skip : describe;
if (browserTestsSkipped()) console.warn(`skipping the browser tests: ${SKIP_BROWSER_ENV}=1`);

const repo = fileURLToPath(new URL("../..", import.meta.url));
const POSTGRES = "postgres://postgres@127.0.0.1:5432";
/** This run's app name: its live channel, apart from any other run's on the same Redis. */
const APP_NAME = `livepages_${process.pid}_${Date.now()}`;

let root = "";
let app = "";
let browser: Browser | undefined;

function wisent(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const done = spawnSync(process.execPath, [WISENT_CLI, ...args], { cwd, env, encoding: "utf8" });
  if (done.status !== 0) throw new Error(`wisent ${args.join(" ")}: ${done.stdout}${done.stderr}`);
}

/** The environment of a server of the app on `databaseUrl`. */
function appEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_ENV;
  delete env.LIVE_URL;
  return { ...env, GO_ENV: "development", DATABASE_URL: databaseUrl, ...extra };
}

/** Migrates the app's database at `databaseUrl` and starts a server on it. */
async function serve(databaseUrl: string, extra: Record<string, string> = {}) {
  const env = appEnv(databaseUrl, extra);
  wisent(app, ["migrate"], env);
  return startWisent(app, { env: { ...env, NODE_ENV: undefined } });
}

/** Waits until the page's `<turbo-stream-source>` has its EventSource open. */
async function subscribed(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (document.querySelector("turbo-stream-source") as { streamSource?: EventSource } | null)
        ?.streamSource?.readyState === 1,
  );
}

/** Opens `path` in `context` subscribed, with a marker a full reload would lose. */
async function watch(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await subscribed(page);
  await page.evaluate(() => {
    (window as unknown as { liveMarker: number }).liveMarker = 1;
  });
  return page;
}

const notReloaded = (p: Page) =>
  p.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker === 1);

/** A new browser context signed up as `email`. */
async function signedUp(base: string, email: string): Promise<BrowserContext> {
  const context = await browser!.newContext();
  const p = await context.newPage();
  await p.goto(`${base}/`);
  await p.getByRole("link", { name: "Sign up" }).first().click();
  await p.getByLabel("Email").fill(email);
  await p.getByLabel("Password", { exact: true }).fill("a live-pages passphrase");
  await p.getByLabel("Password confirmation").fill("a live-pages passphrase");
  await p.getByRole("button", { name: "Sign up" }).click();
  await p.waitForSelector("text=Welcome! Your account is ready.");
  await p.close();
  return context;
}

/** Creates a record through the New form of `collection`: its page's URL. */
async function create(page: Page, url: string, title: string): Promise<string> {
  await page.goto(`${url}/new`);
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(/\/[0-9a-f-]{36}$/);
  return page.url();
}

async function edit(page: Page, title: string): Promise<void> {
  await page.getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForSelector("text=was successfully updated.");
}

async function destroy(page: Page): Promise<void> {
  page.once("dialog", (dialog) => dialog.accept());
  await page.locator("main").getByRole("button", { name: "Destroy" }).click();
  await page.waitForURL(/s$/);
}

// A test drives several pages through sign-ups and forms: 15 s alone on a 2-core machine, more
// beside the other suites; each wait inside it has its own bound of a few seconds.
run("live pages of a generated app in Chromium", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "wisent-live-browser-"));
    wisent(root, ["new", "club", "--dev", "--skip-install"]);
    app = join(root, "club");
    symlinkSync(join(repo, "node_modules"), join(app, "node_modules"), "dir");
    wisent(app, ["generate", "authentication"]);
    wisent(app, ["g", "r", "note", "title", "--live"]);
    wisent(app, ["g", "r", "widget", "title", "--public", "--live"]);
    wisent(app, ["g", "r", "lamp", "title", "--public", "--live"]);
    // Lamps: targeted rows, added by hand as the guide says.
    const appTs = join(app, "src/app.ts");
    const source = readFileSync(appTs, "utf8")
      .replace('name: "club"', `name: "${APP_NAME}"`)
      .replace(
        /(app\.resource\("\/lamps", new LampsResource\(\), \{[^}]*?)live: true/,
        "$1live: { row: Row }",
      );
    if (!source.includes("live: { row: Row }")) throw new Error("lamps: no live: true to change");
    writeFileSync(appTs, `import { Row } from "./templates/lamps/index.js";\n${source}`);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  describe("in one process (SQLite)", () => {
    let server: ServerProcess | undefined;
    let base = "";
    beforeAll(async () => {
      server = await serve(`sqlite:${join(root, "club.sqlite")}`);
      base = server.url;
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("shows Ada's second window her note's create, edit and destroy, and Bob nothing of it", async () => {
      const ada = await signedUp(base, "ada@example.com");
      const adaAgain = await browser!.newContext({ storageState: await ada.storageState() });
      const bob = await signedUp(base, "bob@example.com");
      const bobsNote = `Bob's own ${Date.now()}`;
      await create(await bob.newPage(), `${base}/notes`, bobsNote);

      const watcher = await watch(adaAgain, `${base}/notes`);
      const bobWatching = await watch(bob, `${base}/notes`);
      const writer = await ada.newPage();
      const title = `Ada's note ${Date.now()}`;

      await create(writer, `${base}/notes`, title);
      await watcher.waitForSelector(`td:has-text("${title}")`, { timeout: 5_000 });
      expect(await bobWatching.locator(`text=${title}`).count()).toBe(0);

      await edit(writer, `${title} edited`);
      await watcher.waitForSelector(`td:has-text("${title} edited")`, { timeout: 5_000 });
      expect(await bobWatching.locator(`text=${title}`).count()).toBe(0);

      await destroy(writer);
      await watcher.waitForSelector(`td:has-text("${title}")`, {
        state: "detached",
        timeout: 5_000,
      });
      expect(await notReloaded(watcher)).toBe(true);
      // Bob's page was never refreshed by Ada's changes, and never showed her note.
      expect(await notReloaded(bobWatching)).toBe(true);
      expect(await bobWatching.locator(`td:has-text("${bobsNote}")`).count()).toBe(1);
      expect(await bobWatching.locator(`text=${title}`).count()).toBe(0);
      // Nor his list when he reloads it.
      await bobWatching.reload();
      expect(await bobWatching.locator(`text=${title}`).count()).toBe(0);
      for (const context of [ada, adaAgain, bob]) await context.close();
    });

    it("sends the open page of a destroyed record to the list, saying why (not a 404)", async () => {
      const writer = await (await browser!.newContext()).newPage();
      const title = `Doomed ${Date.now()}`;
      const url = await create(writer, `${base}/widgets`, title);
      const reader = await watch(await browser!.newContext(), url);
      await destroy(writer);
      await reader.waitForURL(`${base}/widgets`, { timeout: 5_000 });
      await reader.waitForSelector("text=The widget you were viewing was deleted.", {
        timeout: 5_000,
      });
      expect(await reader.locator(`text=${title}`).count()).toBe(0);
      // The writer, who left by the Destroy form, got its own answer.
      await writer.waitForSelector("text=Widget was successfully destroyed.");
      await writer.context().close();
      await reader.context().close();
    });

    it("appends, replaces and removes the other page's row without fetching the page again", async () => {
      const watcher = await watch(await browser!.newContext(), `${base}/lamps`);
      const fetched: string[] = [];
      watcher.on("request", (request) => {
        if (new URL(request.url()).pathname === "/lamps") fetched.push(request.url());
      });
      const writer = await (await browser!.newContext()).newPage();
      const title = `Lamp ${Date.now()}`;

      const url = await create(writer, `${base}/lamps`, title);
      const id = url.split("/").pop();
      await watcher.waitForSelector(`tr#lamp_${id} td:has-text("${title}")`, { timeout: 5_000 });
      await edit(writer, `${title} edited`);
      await watcher.waitForSelector(`tr#lamp_${id} td:has-text("${title} edited")`, {
        timeout: 5_000,
      });
      await destroy(writer);
      await watcher.waitForSelector(`tr#lamp_${id}`, { state: "detached", timeout: 5_000 });

      // A row that arrived carries the reader's own CSRF token: its Destroy works.
      const second = await create(writer, `${base}/lamps`, `${title} second`);
      const secondId = second.split("/").pop();
      await watcher.waitForSelector(`tr#lamp_${secondId}`, { timeout: 5_000 });
      expect(fetched).toEqual([]);
      expect(await notReloaded(watcher)).toBe(true);
      watcher.once("dialog", (dialog) => dialog.accept());
      await watcher.locator(`tr#lamp_${secondId}`).getByRole("button", { name: "Destroy" }).click();
      await watcher.waitForSelector("text=Lamp was successfully destroyed.");
      await writer.context().close();
      await watcher.context().close();
    });
  });

  const databases: string[] = [];
  afterAll(async () => {
    if (databases.length === 0) return;
    const admin = new pg.Client({ connectionString: `${POSTGRES}/test` });
    await admin.connect();
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  describe.each([
    ["PostgreSQL LISTEN/NOTIFY", "postgres"],
    ["Redis pub/sub", "redis://127.0.0.1:6379"],
  ])("across two processes on one PostgreSQL database, LIVE_URL %s", (_, live) => {
    let servers: ServerProcess[] = [];
    beforeAll(async () => {
      const name = `live_browser_${process.pid}_${Date.now()}_${databases.length}`;
      const admin = new pg.Client({ connectionString: `${POSTGRES}/test` });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      databases.push(name);
      const url = `${POSTGRES}/${name}`;
      const liveUrl = live === "postgres" ? url : live;
      servers = [await serve(url, { LIVE_URL: liveUrl })];
      servers.push(await serve(url, { LIVE_URL: liveUrl }));
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
    });

    it("shows the page served by one process a change written through the other", async () => {
      const [reading, writing] = servers as [ServerProcess, ServerProcess];
      const watcher = await watch(await browser!.newContext(), `${reading.url}/widgets`);
      const lamps = await watch(await browser!.newContext(), `${reading.url}/lamps`);
      const writer = await (await browser!.newContext()).newPage();
      const title = `Across ${Date.now()}`;
      await create(writer, `${writing.url}/widgets`, title);
      await watcher.waitForSelector(`td:has-text("${title}")`, { timeout: 5_000 });
      await edit(writer, `${title} edited`);
      await watcher.waitForSelector(`td:has-text("${title} edited")`, { timeout: 5_000 });
      await destroy(writer);
      await watcher.waitForSelector(`td:has-text("${title}")`, {
        state: "detached",
        timeout: 5_000,
      });
      expect(await notReloaded(watcher)).toBe(true);
      // A targeted row fits the transport too.
      await create(writer, `${writing.url}/lamps`, `${title} lamp`);
      await lamps.waitForSelector(`td:has-text("${title} lamp")`, { timeout: 5_000 });
      expect(await notReloaded(lamps)).toBe(true);
      for (const page of [watcher, lamps, writer]) await page.context().close();
    });
  });
});
