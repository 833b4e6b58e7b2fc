import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenAnchors } from "./check-anchors.mjs";

let site: string;
const page = (path: string, html: string) => {
  mkdirSync(dirname(join(site, path)), { recursive: true });
  writeFileSync(join(site, path), `<!doctype html><html><body>${html}</body></html>`);
};

describe("brokenAnchors (the built docs site's links to headings)", () => {
  beforeAll(() => {
    site = mkdtempSync(join(tmpdir(), "wisent-anchors-"));
    page(
      "index.html",
      `<h2 id="start">Start</h2><a href="#start">ok</a><a href="#gone">broken</a>
       <a href="/guides/routing#nested-resources">ok</a><a href="guides/routing.html#nope">broken</a>
       <a href="/reference/api/#modules">ok (a folder's index)</a>
       <a href="https://example.com/#x">out of the site</a><a href="#">bare</a>
       <a href="/no-such-page#x">no such page: VitePress reports it</a>`,
    );
    page(
      "guides/routing.html",
      `<h2 id="nested-resources">Nested</h2><a class="x" href="../index.html#start">ok</a>
       <p><a id="appoptions-1"></a></p><a href="../reference/api/wisent/db#paginate">ok</a>
       <a href="#appoptions-1">ok (an HTML anchor)</a><a href="#app&amp;options">broken</a>`,
    );
    page("reference/api/index.html", `<h2 id="modules">Modules</h2>`);
    page("reference/api/wisent/db.html", `<h3 id="paginate">paginate()</h3>`);
  });
  afterAll(() => rmSync(site, { recursive: true, force: true }));

  it("finds exactly the links whose page has no element with their anchor as its id", () => {
    expect(brokenAnchors(site)).toEqual([
      { page: "guides/routing.html", href: "#app&options" },
      { page: "index.html", href: "#gone" },
      { page: "index.html", href: "guides/routing.html#nope" },
    ]);
  });
});
