import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { isValidHost } from "./app-url.js";
import { paginationHeaders } from "./pagination-headers.js";

const paginator = {
  page: 1,
  per_page: 2,
  offset: 0,
  total_entries_size: 5,
  current_entries_size: 2,
  total_pages: 3,
};

function listApp() {
  const app = new App({ name: "links", env: "test" });
  app.get("/widgets", (c) => c.json([], 200, paginationHeaders(paginator, c)));
  return app;
}

async function linkOf(path: string, headers: Record<string, string> = {}, peer?: string) {
  const env = peer === undefined ? undefined : { incoming: { socket: { remoteAddress: peer } } };
  const res = await listApp().fetch(new Request(`http://shop.example${path}`, { headers }), env);
  return res.headers.get("link");
}

describe("absolute URLs in the pagination Link header", () => {
  it("keep the request's format extension", async () => {
    expect(await linkOf("/widgets.json?per_page=2")).toBe(
      '<http://shop.example/widgets.json?per_page=2&page=1>; rel="first", <http://shop.example/widgets.json?per_page=2&page=2>; rel="next", <http://shop.example/widgets.json?per_page=2&page=3>; rel="last"',
    );
  });

  it("take the scheme a trusted proxy reported, and only a trusted proxy's", async () => {
    process.env.TRUSTED_PROXIES = "10.0.0.1";
    try {
      const proxied = { "x-forwarded-proto": "https" };
      expect(await linkOf("/widgets?per_page=2", proxied, "10.0.0.1")).toMatch(
        /^<https:\/\/shop\.example\/widgets\?per_page=2&page=1>/,
      );
      expect(await linkOf("/widgets?per_page=2", proxied, "192.0.2.1")).toMatch(
        /^<http:\/\/shop\.example\/widgets\?per_page=2&page=1>/,
      );
    } finally {
      delete process.env.TRUSTED_PROXIES;
    }
  });

  it("never copy a Host that is not a host: the links stay relative", async () => {
    for (const host of ['a"b', "1.2.3.256", "a b", "x>y"]) {
      const link = await linkOf("/widgets.xml", { host });
      expect(link, host).toMatch(/^<\/widgets\.xml\?page=1>; rel="first"/);
    }
  });

  it("come from APP_URL when it is set, whatever the Host", async () => {
    process.env.APP_URL = "https://shop.example.com";
    try {
      expect(await linkOf("/widgets", { host: "evil.example" })).toMatch(
        /^<https:\/\/shop\.example\.com\/widgets\?page=1>; rel="first"/,
      );
    } finally {
      delete process.env.APP_URL;
    }
  });

  it("come from the APP_URL an App read at its first request, as it reads GO_ENV once", async () => {
    process.env.APP_URL = "https://shop.example.com";
    try {
      const app = listApp();
      const link = async () =>
        (await app.fetch(new Request("http://shop.example/widgets"))).headers.get("link");
      expect(await link()).toMatch(/^<https:\/\/shop\.example\.com\/widgets\?page=1>/);
      process.env.APP_URL = "https://elsewhere.example";
      expect(await link()).toMatch(/^<https:\/\/shop\.example\.com\/widgets\?page=1>/);
      // A new App reads the variable anew.
      expect(await linkOf("/widgets")).toMatch(/^<https:\/\/elsewhere\.example\/widgets\?page=1>/);
    } finally {
      delete process.env.APP_URL;
    }
  });
});

describe("isValidHost", () => {
  it.each([
    ["shop.example", true],
    ["shop.example:3000", true],
    ["127.0.0.1:80", true],
    ["[::1]:3000", true],
    ["1.2.3.256", false],
    ['a"b', false],
    ["", false],
    ["a/b", false],
    ["a:b:c", false],
    // Punycode the URL standard refuses (Node 24's parser lets these through).
    ["xn--zz", false],
    ["a.xn--", false],
    ["xn--mnchen-3ya.de", true],
  ])("%s -> %s", (host, valid) => expect(isValidHost(host)).toBe(valid));
});
