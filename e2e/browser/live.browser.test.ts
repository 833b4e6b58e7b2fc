/**
 * Live pages in Chromium on the example shop (its widgets are `live: true`): two pages on the
 * widget list; one creates, edits and destroys a widget through the forms, the other's list
 * shows each change without being reloaded (a marker set on its window survives: Turbo
 * refetched the page, the browser did not load it again). Then the same under
 * `wisent start --workers 2`, where the write and the watching page's stream may be served by
 * different workers. With JavaScript off, the same pages and forms work without the stream.
 * Skipped only with WISENT_SKIP_BROWSER=1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserTestsSkipped, launchChromium, SKIP_BROWSER_ENV } from "../support/chromium.js";
import { EXAMPLE_SHOP, type ServerProcess, startWisent, WISENT_CLI } from "../support/server.js";

const run = browserTestsSkipped() ? describe.skip : describe;
if (browserTestsSkipped()) console.warn(`skipping the browser tests: ${SKIP_BROWSER_ENV}=1`);

/** A watching page: on the list, with a marker a full reload would lose. */
async function watchList(browser: Browser, base: string): Promise<Page> {
  const context = await browser.newContext();
  const watcher = await context.newPage();
  await watcher.goto(`${base}/widgets`);
  // Subscribed: Turbo's element has opened its EventSource.
  await watcher.waitForFunction(
    () =>
      (document.querySelector("turbo-stream-source") as { streamSource?: EventSource } | null)
        ?.streamSource?.readyState === 1,
  );
  await watcher.evaluate(() => {
    (window as unknown as { liveMarker: number }).liveMarker = 1;
  });
  return watcher;
}

const notReloaded = (p: Page) =>
  p.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker === 1);

for (const workers of [undefined, 2]) {
  run(`live widget list in Chromium${workers ? ` under --workers ${workers}` : ""}`, () => {
    let server: ServerProcess | undefined;
    let browser: Browser | undefined;
    let dataDir = "";
    let base = "";

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "shop-live-"));
      const env = {
        ...process.env,
        GO_ENV: "development",
        DATABASE_URL: `sqlite:${join(dataDir, "shop.sqlite")}`,
        STORAGE_URL: `file:${join(dataDir, "storage")}`,
      };
      const migrated = spawnSync(process.execPath, [WISENT_CLI, "migrate"], {
        cwd: EXAMPLE_SHOP,
        env,
        encoding: "utf8",
      });
      if (migrated.status !== 0) throw new Error(`migrate: ${migrated.stdout}${migrated.stderr}`);
      server = await startWisent(EXAMPLE_SHOP, {
        env,
        ...(workers && { args: ["--workers", String(workers)] }),
      });
      base = server.url;
      browser = await launchChromium();
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("shows another page's create, edit and destroy without a reload", async () => {
      const watcher = await watchList(browser!, base);
      const writer = await (await browser!.newContext()).newPage();
      const title = `Live ${workers ?? 1} ${Date.now()}`;

      await writer.goto(`${base}/widgets/new`);
      await writer.getByLabel("Title").fill(title);
      await writer.getByRole("button", { name: "Save" }).click();
      await writer.waitForURL(/\/widgets\/[0-9a-f-]{36}$/);
      await watcher.waitForSelector(`td:has-text("${title}")`, { timeout: 5_000 });

      await writer.getByRole("link", { name: "Edit" }).click();
      await writer.getByLabel("Title").fill(`${title} edited`);
      await writer.getByRole("button", { name: "Save" }).click();
      await writer.waitForSelector("text=Widget was successfully updated.");
      await watcher.waitForSelector(`td:has-text("${title} edited")`, { timeout: 5_000 });

      writer.once("dialog", (dialog) => dialog.accept());
      await writer.getByRole("button", { name: "Destroy" }).click();
      await writer.waitForURL(/\/widgets$/);
      await watcher.waitForSelector(`td:has-text("${title}")`, {
        state: "detached",
        timeout: 5_000,
      });
      expect(await notReloaded(watcher)).toBe(true);
      await writer.context().close();
      await watcher.context().close();
    });

    it("works with JavaScript off: the forms and pages of a live resource, without its stream", async () => {
      const context = await browser!.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const title = `No script ${workers ?? 1} ${Date.now()}`;
      await page.goto(`${base}/widgets/new`);
      await page.getByLabel("Title").fill(title);
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/widgets\/[0-9a-f-]{36}$/);
      await page.getByRole("link", { name: "Edit" }).click();
      await page.getByLabel("Title").fill(`${title} edited`);
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForSelector("text=Widget was successfully updated.");
      await page.goto(`${base}/widgets`);
      await page.waitForSelector(`td:has-text("${title} edited")`);
      await page
        .locator(`tr:has-text("${title} edited")`)
        .getByRole("button", { name: "Destroy" })
        .click();
      await page.waitForURL(/\/widgets$/);
      expect(await page.locator(`td:has-text("${title}")`).count()).toBe(0);
      await context.close();
    });
  });
}
