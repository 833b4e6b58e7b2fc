/**
 * The example shop in a real browser: the machine's Chromium (/usr/bin/chromium) or the one from
 * the @sparticuz/chromium npm package (see ../support/chromium.ts; never a downloaded browser),
 * driven by playwright-core. Skipped only with WISENT_SKIP_BROWSER=1. Creates, fails validation, edits, destroys with
 * the confirmation accepted and dismissed (and with JavaScript off: the Destroy form needs none),
 * pages through 45 widgets, opens a widget's images, uploads a PNG through the image form and sees
 * it on its page and as a thumbnail in the list (and a disguised and an oversized file, refused
 * with nothing stored), asks for no missing favicon, and
 * saves screenshots of the main pages under examples/shop/test/screenshots/.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXE, PNG } from "../../packages/wisent/src/storage/test-support/sample-files.js";
import { browserTestsSkipped, launchChromium, SKIP_BROWSER_ENV } from "../support/chromium.js";
import { EXAMPLE_SHOP, type ServerProcess, startWisent, WISENT_CLI } from "../support/server.js";

const shop = EXAMPLE_SHOP;
const cli = WISENT_CLI;
const screenshots = join(shop, "test/screenshots");

let server: ServerProcess | undefined;
let browser: Browser | undefined;
let base = "";
let dataDir = "";
/** Where the shop stores uploads in this run (STORAGE_URL): read to see what was kept. */
let storageDir = "";
const storedFiles = () => (existsSync(storageDir) ? readdirSync(storageDir) : []);

const consoleProblems: string[] = [];

async function page(javaScriptEnabled = true): Promise<Page> {
  const p = await browser!.newPage({ viewport: { width: 1200, height: 900 }, javaScriptEnabled });
  p.on("console", (m) => {
    // Status lines for responses are checked below, by URL; everything else (CSP refusals,
    // script errors) is a problem.
    if (m.text().startsWith("Failed to load resource")) return;
    if (m.type() === "error" || m.type() === "warning")
      consoleProblems.push(`${m.type()}: ${m.text()}`);
  });
  p.on("response", (r) => {
    const expected = r.status() === 422 && r.request().method() === "POST";
    if (r.status() >= 400 && !expected)
      consoleProblems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  p.on("pageerror", (e) => consoleProblems.push(`pageerror: ${e.message}`));
  return p;
}

const run = browserTestsSkipped() ? describe.skip : describe;
if (browserTestsSkipped()) console.warn(`skipping the browser tests: ${SKIP_BROWSER_ENV}=1`);

run("the example shop in Chromium", () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "shop-browser-"));
    // The shop's files in development: <app>/<environment>/ of the storage folder.
    storageDir = join(dataDir, "storage", "shop", "development");
    const env = {
      ...process.env,
      GO_ENV: "development",
      DATABASE_URL: `sqlite:${join(dataDir, "shop.sqlite")}`,
      STORAGE_URL: `file:${join(dataDir, "storage")}`,
    };
    const migrated = spawnSync(process.execPath, [cli, "migrate"], {
      cwd: shop,
      env,
      encoding: "utf8",
    });
    if (migrated.status !== 0)
      throw new Error(`migrate failed: ${migrated.stdout}${migrated.stderr}`);
    server = await startWisent(shop, { env });
    base = server.url;
    browser = await launchChromium();
    mkdirSync(screenshots, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates a widget through the form and shows the flash", async () => {
    const p = await page();
    await p.goto(`${base}/widgets/new`);
    await p.getByLabel("Title").fill("Browser widget");
    await p.getByLabel("Description").fill("Made in Chromium");
    await p.getByRole("button", { name: "Save" }).click();
    await p.waitForURL(/\/widgets\/[0-9a-f-]{36}$/);
    expect(await p.textContent("body")).toContain("Widget was successfully created.");
    expect(await p.textContent("h1")).toBe("Widget Details");
    await p.screenshot({ path: join(screenshots, "show.png"), fullPage: true });
    await p.close();
  });

  it("shows the error for an empty title and keeps the description", async () => {
    const p = await page();
    await p.goto(`${base}/widgets/new`);
    await p.getByLabel("Description").fill("Kept after the error");
    await p.getByRole("button", { name: "Save" }).click();
    await p.waitForSelector("text=Title can not be blank.");
    expect(await p.getByLabel("Description").inputValue()).toBe("Kept after the error");
    await p.screenshot({ path: join(screenshots, "new-with-errors.png"), fullPage: true });
    await p.close();
  });

  it("edits a widget", async () => {
    const p = await page();
    await p.goto(`${base}/widgets`);
    await p.getByRole("link", { name: "Edit" }).first().click();
    await p.waitForSelector("h1:has-text('Edit Widget')");
    await p.screenshot({ path: join(screenshots, "edit.png"), fullPage: true });
    await p.getByLabel("Title").fill("Edited in Chromium");
    await p.getByRole("button", { name: "Save" }).click();
    await p.waitForSelector("text=Widget was successfully updated.");
    expect(await p.textContent("body")).toContain("Edited in Chromium");
    await p.close();
  });

  it("destroys from the index only when the confirmation is accepted", async () => {
    const extra = await fetch(`${base}/widgets`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ title: "Second widget" }),
    });
    expect(extra.status).toBe(201);
    const p = await page();
    await p.goto(`${base}/widgets`);
    const rows = () => p.locator("tbody tr").count();
    const before = await rows();
    const destroy = p.getByRole("button", { name: "Destroy" });
    const forms = p.locator("form.button-to");
    const kept = await forms.nth(0).getAttribute("action");
    const gone = await forms.nth(1).getAttribute("action");
    // Every request that is not a GET: a dismissed confirmation must not send one.
    const sent: string[] = [];
    p.on("request", (r) => {
      if (r.method() !== "GET") sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    p.once("dialog", (d) => void d.dismiss());
    await destroy.nth(0).click();
    p.once("dialog", (d) => void d.accept());
    await destroy.nth(1).click();
    await p.waitForSelector("text=Widget was successfully destroyed.");
    expect(sent).toEqual([`POST ${gone}`]);
    expect(await rows()).toBe(before - 1);
    expect((await fetch(`${base}${kept}.json`)).status).toBe(200);
    expect((await fetch(`${base}${gone}.json`)).status).toBe(404);
    await p.close();
  });

  it("destroys with JavaScript disabled: the Destroy form posts _method=DELETE and the token", async () => {
    const made = await fetch(`${base}/widgets`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ title: "Destroyed without JavaScript" }),
    });
    const { id } = (await made.json()) as { id: string };
    const p = await page(false);
    await p.goto(`${base}/widgets/${id}`);
    let asked = false;
    p.on("dialog", (d) => {
      asked = true;
      void d.dismiss();
    });
    const posted = p.waitForRequest((r) => r.method() === "POST");
    await p.getByRole("button", { name: "Destroy" }).click();
    const request = await posted;
    const form = new URLSearchParams(request.postData() ?? "");
    expect(form.get("_method")).toBe("DELETE");
    expect(form.get("authenticity_token")).toMatch(/\S{20,}/);
    await p.waitForSelector("text=Widget was successfully destroyed.");
    expect(asked).toBe(false);
    expect(new URL(p.url()).pathname).toBe("/widgets");
    expect((await fetch(`${base}/widgets/${id}.json`)).status).toBe(404);
    await p.close();
  });

  it("serves the favicon the layout links", async () => {
    const p = await page();
    await p.goto(`${base}/widgets`);
    const href = await p.locator('link[rel="icon"]').getAttribute("href");
    expect(href).toBe("/favicon.ico");
    const icon = await fetch(`${base}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/x-icon");
    await p.close();
  });

  it("pages through 45 widgets with the paginator", async () => {
    const existing = (
      (await (await fetch(`${base}/widgets.json?per_page=100`)).json()) as unknown[]
    ).length;
    for (let i = existing; i < 45; i++) {
      const res = await fetch(`${base}/widgets`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ title: `Widget ${String(i).padStart(2, "0")}` }),
      });
      expect(res.status).toBe(201);
    }
    const p = await page();
    await p.goto(`${base}/widgets`);
    expect(await p.locator("tbody tr").count()).toBe(20);
    await p.screenshot({ path: join(screenshots, "index.png"), fullPage: true });
    await p.getByRole("link", { name: "3", exact: true }).click();
    await p.waitForURL(/page=3/);
    expect(await p.locator("tbody tr").count()).toBe(5);
    await p.close();
  });

  it("opens a widget's images", async () => {
    const [widget] = (await (await fetch(`${base}/widgets.json`)).json()) as {
      id: string;
      title: string;
    }[];
    const p = await page();
    await p.goto(`${base}/widgets/${widget!.id}/images`);
    // The nested index names its widget and links back to it.
    expect(await p.textContent("h1")).toBe(`Images of ${widget!.title}`);
    expect(await p.getByRole("link", { name: "Back to Widget" }).getAttribute("href")).toBe(
      `/widgets/${widget!.id}`,
    );
    await p.getByRole("link", { name: "Create New Image" }).click();
    await p.getByLabel("Caption").fill("Front view");
    await p.getByRole("button", { name: "Save" }).click();
    await p.waitForSelector("text=Image was successfully created.");
    await p.getByRole("link", { name: "Back to all Images" }).click();
    await p.waitForURL(`${base}/widgets/${widget!.id}/images`);
    expect(await p.locator("tbody td").first().textContent()).toBe("Front view");
    await p.close();
  });

  it("uploads a PNG through the image form, shows it on its page and as a thumbnail in the list", async () => {
    const [widget] = (await (await fetch(`${base}/widgets.json`)).json()) as { id: string }[];
    const before = storedFiles();
    const p = await page();
    await p.goto(`${base}/widgets/${widget!.id}/images/new`);
    await p.getByLabel("Caption").fill("Uploaded in Chromium");
    await p
      .getByLabel("File")
      .setInputFiles({ name: "front.png", mimeType: "image/png", buffer: PNG });
    await p.getByRole("button", { name: "Save" }).click();
    await p.waitForSelector("text=Image was successfully created.");
    const img = p.locator("img.attachment");
    await img.waitFor();
    // The browser loaded and decoded the thumbnail (made by sharp on this first request).
    await p.waitForFunction(() => {
      const shown = document.querySelector<HTMLImageElement>("img.attachment");
      return shown?.complete === true && shown.naturalWidth > 0;
    });
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
    // The page shows the thumbnail, linked to the original, never the original at full size.
    const src = await p.locator("a:has(img.attachment)").getAttribute("href");
    expect(src).toMatch(/^\/files\/[0-9a-f-]{36}\.png\/front\.png$/);
    expect(await img.getAttribute("src")).toBe(`${src}?variant=thumb`);
    const served = await fetch(`${base}${src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    const uploads = (files: string[]) => files.filter((name) => name !== "variants");
    expect(uploads(storedFiles()).length).toBe(uploads(before).length + 1);
    // The list shows it as a thumbnail too, linked to it.
    await p.getByRole("link", { name: "Back to all Images" }).click();
    const thumb = p.locator(`a[href="${src}"] img.attachment`);
    await thumb.waitFor();
    expect(await thumb.getAttribute("src")).toBe(`${src}?variant=thumb`);
    await p.waitForFunction((selector) => {
      const shown = document.querySelector<HTMLImageElement>(selector);
      return shown?.complete === true && shown.naturalWidth > 0;
    }, `a[href="${src}"] img.attachment`);
    const thumbnail = await fetch(`${base}${src}?variant=thumb`);
    expect(thumbnail.headers.get("content-type")).toBe("image/webp");
    expect(storedFiles()).toContain("variants");
    await p.close();
  });

  it("refuses a disguised and an oversized file with the field's error, storing nothing", async () => {
    const [widget] = (await (await fetch(`${base}/widgets.json`)).json()) as { id: string }[];
    const list = `${base}/widgets/${widget!.id}/images.json`;
    const count = async () => ((await (await fetch(list)).json()) as unknown[]).length;
    const rows = await count();
    const before = storedFiles();
    const p = await page();
    const refused = [
      {
        file: { name: "cat.png", mimeType: "image/png", buffer: EXE },
        error: "File must be any image, application/pdf (its bytes are application/x-msdownload).",
      },
      {
        // A real PNG header, then past the 10 MB default limit.
        file: {
          name: "huge.png",
          mimeType: "image/png",
          buffer: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]),
        },
        error: "File must be at most 10 MB.",
      },
    ];
    for (const { file, error } of refused) {
      await p.goto(`${base}/widgets/${widget!.id}/images/new`);
      await p.getByLabel("Caption").fill(`Refused ${file.name}`);
      await p.getByLabel("File").setInputFiles(file);
      const answer = p.waitForResponse((r) => r.request().method() === "POST");
      await p.getByRole("button", { name: "Save" }).click();
      expect((await answer).status()).toBe(422);
      await p.waitForSelector(`text=${error}`);
      expect(await p.getByLabel("File").getAttribute("aria-invalid")).toBe("true");
      expect(await p.getByLabel("Caption").inputValue()).toBe(`Refused ${file.name}`);
    }
    expect(storedFiles()).toEqual(before);
    expect(await count()).toBe(rows);
    await p.close();
  });

  it("logged no console errors (the pages satisfy their Content-Security-Policy)", () => {
    expect(consoleProblems).toEqual([]);
  });
});
