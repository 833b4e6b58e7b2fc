// Security headers on HTML responses, and pages that satisfy the Content-Security-Policy they are
// sent with (no inline scripts or handlers, everything from the app's own origin). The
// real-browser check of the CSP comes with the example app.
import { describe, expect, it } from "vitest";
import { Browser, tokenFrom } from "./support/browser.js";
import { report } from "./support/figures.js";
import { type Reply, send } from "./support/http.js";
import { useShopOnSqlite } from "./support/shop.js";

function directives(reply: Reply): Record<string, string[]> {
  const header = String(reply.headers["content-security-policy"] ?? "");
  return Object.fromEntries(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** What a CSP of `script-src 'self'` forbids or a same-origin policy would block, found in a page. */
function cspViolations(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes, text] = match;
    if (!/\bsrc=/.test(attributes!)) found.push(`inline script: ${text!.slice(0, 60)}`);
    const src = /\bsrc="([^"]*)"/.exec(attributes!)?.[1];
    if (src && !src.startsWith("/")) found.push(`script from elsewhere: ${src}`);
  }
  for (const match of html.matchAll(/\s(on[a-z]+)=/gi))
    found.push(`event handler attribute: ${match[1]}`);
  for (const match of html.matchAll(/(?:href|src|action)="\s*javascript:/gi))
    found.push(`javascript: URL ${match[0]}`);
  for (const match of html.matchAll(
    /<(?:link|img|iframe|object|embed)\b[^>]*(?:href|src)="(https?:)?\/\/[^"]*"/gi,
  )) {
    found.push(`resource from another origin: ${match[0]}`);
  }
  for (const match of html.matchAll(/<form\b[^>]*action="([^"]*)"/gi)) {
    if (!match[1]!.startsWith("/")) found.push(`form posting elsewhere: ${match[1]}`);
  }
  return found;
}

describe("security headers and CSP-clean pages", () => {
  const shop = useShopOnSqlite();

  it("sends CSP, nosniff, Referrer-Policy and frame-ancestors on every HTML page, and the pages satisfy the CSP", async () => {
    const browser = new Browser(shop.server.url);
    const form = await browser.get("/widgets/new");
    const created = await browser.post("/widgets", {
      authenticity_token: tokenFrom(form.body),
      title: "Headed",
      description: "checked",
    });
    const show = String(created.headers.location);
    const pages: [string, Reply][] = [
      ["home", await browser.get("/")],
      ["index", await browser.get("/widgets")],
      ["new", await browser.get("/widgets/new")],
      ["show (with flash)", await browser.get(show)],
      ["edit", await browser.get(`${show}/edit`)],
      [
        "422 form",
        await browser.post("/widgets", { authenticity_token: tokenFrom(form.body), title: "" }),
      ],
      ["404 page", await browser.get("/no/such/page")],
      ["404 record", await browser.get("/widgets/01936c1e-0000-7000-8000-000000000000")],
      ["403 page", await browser.post("/widgets", { title: "no token" })],
      // Unmatched requests of every method go through the app's middleware (404/405, not 403).
      ["404 POST (no token)", await browser.post("/no/such/page", { title: "x" })],
      ["405 POST on a record (no token)", await browser.post(show, { title: "x" })],
      ["redirect", created],
    ];
    const checked: Record<string, number> = {};
    for (const [label, reply] of pages) {
      checked[label] = reply.status;
      const csp = directives(reply);
      expect(csp["default-src"], label).toEqual(["'self'"]);
      // Besides the app's own files, only what carries the request's nonce (nothing inline else).
      const nonce = /^'nonce-[A-Za-z0-9+/=]+'$/;
      expect(
        csp["script-src"]?.filter((source) => !nonce.test(source)),
        label,
      ).toEqual(["'self'"]);
      expect(csp["frame-ancestors"], label).toEqual(["'none'"]);
      expect(csp["object-src"], label).toEqual(["'none'"]);
      expect(csp["base-uri"], label).toEqual(["'self'"]);
      expect(csp["form-action"], label).toEqual(["'self'"]);
      expect(reply.headers["x-content-type-options"], label).toBe("nosniff");
      expect(reply.headers["referrer-policy"], label).toBe("strict-origin-when-cross-origin");
      expect(reply.headers["x-frame-options"], label).toBe("DENY");
      expect(reply.headers["x-powered-by"], label).toBeUndefined();
      if (String(reply.headers["content-type"]).startsWith("text/html")) {
        expect(cspViolations(reply.body), label).toEqual([]);
      }
    }
    expect(checked["404 POST (no token)"]).toBe(404);
    expect(checked["405 POST on a record (no token)"]).toBe(405);
    // The data-method/data-confirm script is a file from the app's origin, served with nosniff.
    const script = await send(shop.server.url, "/assets/application.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/javascript/);
    expect(script.body).toContain("data-method");
    report("security headers", { pages: checked });
  });

  it("finds the violations it looks for (the checker can fail)", () => {
    expect(
      cspViolations(
        '<script>alert(1)</script><a onclick="x()" href="javascript:void(0)">x</a><script src="https://cdn.example/x.js"></script><form action="https://evil.example/">',
      ),
    ).toHaveLength(5);
  });
});
