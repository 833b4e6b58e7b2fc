/**
 * Hotwire Turbo 8 and htmx 2 (their npm packages, served as static files) under Wisent's
 * Content-Security-Policy, in Chromium: the layout's `<CspNonceMeta />` gives Turbo the nonce for
 * its progress bar's `<style>`, `<meta name="htmx-config">` gives htmx its own for the indicator
 * styles, and the page's own inline `<script nonce>` runs, all with no `'unsafe-inline'` and no
 * CSP violation in the console. A control page with an inline style that has no nonce shows the
 * console does report violations. htmx's DELETE sends the CSRF token in the query string.
 * Skipped only with WISENT_SKIP_BROWSER=1.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App } from "../../packages/wisent/src/app/app.js";
import { CspNonceMeta, CsrfMeta } from "../../packages/wisent/src/http/components.js";
import { cspNonce } from "../../packages/wisent/src/http/csp-nonce.js";
import { type Layout, layout } from "../../packages/wisent/src/http/respond.js";
import { rawHtml } from "../../packages/wisent/src/jsx/html.js";
import { h } from "../../packages/wisent/src/jsx/jsx-runtime.js";
import { csrf } from "../../packages/wisent/src/middleware/csrf/csrf.js";
import { securityHeaders } from "../../packages/wisent/src/middleware/security-headers/security-headers.js";
import { session } from "../../packages/wisent/src/middleware/session/session.js";
import type { RunningServer } from "../../packages/wisent/src/server/listen.js";
import { browserTestsSkipped, launchChromium, SKIP_BROWSER_ENV } from "../support/chromium.js";

const require = createRequire(import.meta.url);
const TURBO = require.resolve("@hotwired/turbo/dist/turbo.es2017-umd.js");
const HTMX = require.resolve("htmx.org/dist/htmx.min.js");
const FAVICON = fileURLToPath(
  new URL("../../packages/wisent/templates/app/web/public/favicon.ico", import.meta.url),
);

/** The layout a web app would have, with both libraries and the nonce handed to each. */
const PageLayout: Layout = ({ page, children }) => {
  const nonce = cspNonce(page.c) ?? "";
  // htmx reads its nonce from its own config meta, once, when it loads.
  return h(
    "html",
    { lang: "en" },
    h(
      "head",
      {},
      h("meta", { charset: "utf-8" }),
      h("title", {}, "clients"),
      h(CsrfMeta, {}),
      h(CspNonceMeta, {}),
      h("meta", { name: "htmx-config", content: JSON.stringify({ inlineStyleNonce: nonce }) }),
      h("script", { src: "/vendor/turbo.js" }),
      h("script", { src: "/vendor/htmx.js", defer: true }),
    ),
    h("body", {}, children),
  );
};

let server: RunningServer | undefined;
let browser: Browser | undefined;
let vendor = "";

function clientsApp() {
  const app = new App({ name: "clients", env: "test" });
  app.use(securityHeaders({ contentSecurityPolicy: { styleSrc: ["'self'"] } }));
  app.use(session({ secret: "csp-clients-secret-".padEnd(32, "x") }));
  app.use(csrf());
  app.use(layout(PageLayout));
  app.get("/", (c) =>
    c.respond(200, {
      html: () =>
        h(
          "main",
          {},
          h("h1", {}, "Home"),
          h("a", { href: "/slow", id: "slow" }, "Slow page"),
          h(
            "button",
            {
              id: "remove",
              "hx-delete": "/things/7",
              "hx-target": "#out",
              "hx-vals": JSON.stringify({ authenticity_token: c.csrfToken() }),
            },
            "Remove",
          ),
          h("p", { id: "out" }, "waiting"),
          // The page's own inline script and style, allowed by the nonce alone. In the page, not
          // the layout's head: Turbo Drive merges a visited page's head into this document, whose
          // CSP keeps this request's nonce (docs/security.md).
          h(
            "script",
            { nonce: cspNonce(c) },
            rawHtml("Turbo.config.drive.progressBarDelay = 0; window.inlineScriptRan = true;"),
          ),
          h("style", { nonce: cspNonce(c) }, rawHtml("#out { color: rgb(1, 2, 3); }")),
        ),
    }),
  );
  app.get("/slow", async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return c.respond(200, { html: () => h("h1", {}, "Slow page") });
  });
  app.delete("/things/:thing_id", (c) => {
    const token = new URL(c.req.url).searchParams.has("authenticity_token");
    return c.html(`deleted ${c.req.param("thing_id")}, token in the query: ${token}`);
  });
  // The control: an inline style without the nonce, which the CSP must refuse.
  app.get("/unnonced", (c) => c.html("<!DOCTYPE html><style>p{color:red}</style><p>x</p>"));
  app.serveFiles("/", vendor);
  return app;
}

const problems: string[] = [];

async function page(): Promise<Page> {
  const p = await browser!.newPage();
  p.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });
  p.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return p;
}

const run = browserTestsSkipped() ? describe.skip : describe;
if (browserTestsSkipped()) console.warn(`skipping the browser tests: ${SKIP_BROWSER_ENV}=1`);

run("Turbo 8 and htmx 2 under the CSP, with its nonce", () => {
  beforeAll(async () => {
    vendor = mkdtempSync(join(tmpdir(), "wisent-csp-clients-"));
    mkdirSync(join(vendor, "vendor"));
    copyFileSync(TURBO, join(vendor, "vendor/turbo.js"));
    copyFileSync(HTMX, join(vendor, "vendor/htmx.js"));
    copyFileSync(FAVICON, join(vendor, "favicon.ico"));
    server = await clientsApp().listen({ port: 0, host: "127.0.0.1" });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (vendor) rmSync(vendor, { recursive: true, force: true });
  });

  it("loads both, runs the nonce'd inline script and style, and logs no CSP violation", async () => {
    problems.length = 0;
    const p = await page();
    const res = await p.goto(`${server!.url}/`);
    const csp = res!.headers()["content-security-policy"]!;
    expect(csp).not.toContain("unsafe-inline");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(await p.locator('meta[name="csp-nonce"]').getAttribute("content")).toBe(nonce);
    await p.waitForFunction(() => "Turbo" in window && "htmx" in window);
    expect(await p.evaluate(() => (window as { inlineScriptRan?: boolean }).inlineScriptRan)).toBe(
      true,
    );
    expect(await p.locator("#out").evaluate((e) => getComputedStyle(e).color)).toBe("rgb(1, 2, 3)");
    // htmx's indicator styles went in with its nonce.
    expect(await p.locator("head style").count()).toBeGreaterThanOrEqual(2);

    // htmx 2 sends a DELETE's parameters in the query string: the token with them.
    await p.click("#remove");
    await p.waitForSelector("text=deleted 7, token in the query: true");

    // Turbo Drive: the progress bar (delay 0) installs its <style> with the meta's nonce.
    await p.click("#slow");
    await p.waitForSelector(".turbo-progress-bar", { state: "attached" });
    await p.waitForSelector("h1:has-text('Slow page')");
    expect(new URL(p.url()).pathname).toBe("/slow");
    await p.close();
    expect(problems).toEqual([]);
  });

  it("reports a violation for an inline style without the nonce (the check above can fail)", async () => {
    problems.length = 0;
    const p = await page();
    await p.goto(`${server!.url}/unnonced`);
    await p.waitForLoadState("load");
    await p.close();
    expect(problems.join("\n")).toContain("Content Security Policy");
  });
});
