import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { addPageHooks, type Page, pageOf, usePage, withPage } from "./page.js";

/** Two requests' contexts, each with its page. */
async function twoPages(): Promise<[Page, Page]> {
  const pages: Page[] = [];
  const app = new Hono();
  app.get("/", (c) => {
    addPageHooks(c, {
      readFlash: () => ({ success: ["Saved."] }),
      csrfToken: () => `token-${pages.length}`,
      lang: () => "de",
      t: (_c, key) => `[${key}]`,
    });
    pages.push(pageOf(c));
    return c.text("ok");
  });
  await app.request("/");
  await app.request("/");
  return [pages[0]!, pages[1]!];
}

describe("a request's page", () => {
  it("reads the hooks once each, lazily", async () => {
    const [page] = await twoPages();
    expect(page.flash).toEqual({ success: ["Saved."] });
    expect(page.flash).toBe(page.flash);
    expect(page.csrfToken).toBe("token-2");
    expect(page.csrfToken).toBe("token-2");
    expect(page.csrfParam).toBe("authenticity_token");
    expect(page.lang).toBe("de");
    expect(page.t("widgets.title")).toBe("[widgets.title]");
    // Taken apart, as templates do.
    const { t, lang } = page;
    expect(t("widgets.title")).toBe("[widgets.title]");
    expect(lang).toBe("de");
    expect(withPage(page, () => usePage())).toBe(page);
  });

  it("has no accessors of its own: every page shares one shape", async () => {
    // An object literal with getters, made per request, got a hidden class of its own that V8
    // holds weakly: the scavenger kept every request's page, and the request with it, until a
    // full GC (bench/load/RESULTS.md, issue 17 continued).
    const [a, b] = await twoPages();
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    for (const name of ["flash", "csrfToken", "lang"]) {
      expect(Object.getOwnPropertyDescriptor(a, name), name).toBeUndefined();
    }
  });
});
