// Sessions: a tampered, truncated or other-secret cookie gives a fresh session. CSRF: missing,
// wrong, other-session and cross-origin tokens are refused with 403.
import { defaults, seal } from "iron-webcrypto";
import { afterAll, describe, expect, it } from "vitest";
import { Browser, tokenFrom } from "./support/browser.js";
import { report } from "./support/figures.js";
import { send } from "./support/http.js";
import { useShopOnSqlite } from "./support/shop.js";

const COOKIE = "_shop_session";

describe("sessions and CSRF against the running app", () => {
  const shop = useShopOnSqlite();
  const refusals: Record<string, number> = {};
  afterAll(() => {
    report("sessions and CSRF", refusals);
  });

  /** A browser that created a widget: its session holds a flash and a CSRF secret. */
  async function signedIn() {
    const browser = new Browser(shop.server.url);
    const form = await browser.get("/widgets/new");
    const token = tokenFrom(form.body);
    const created = await browser.post("/widgets", { authenticity_token: token, title: "mine" });
    expect(created.status).toBe(303);
    return { browser, token, cookie: browser.cookies.get(COOKIE)! };
  }

  const forgedCookies = async (cookie: string): Promise<[string, string][]> => {
    const middle = Math.floor(cookie.length / 2);
    const flipped = cookie[middle] === "A" ? "B" : "A";
    return [
      ["tampered", cookie.slice(0, middle) + flipped + cookie.slice(middle + 1)],
      ["truncated", cookie.slice(0, cookie.length - 12)],
      ["cut in half", cookie.slice(0, middle)],
      [
        "sealed with another secret",
        await seal(
          { _flash: { success: ["INJECTED FLASH"] }, authenticity_token: "x".repeat(43) },
          "another-apps-secret-that-is-long-enough-0123",
          defaults,
        ),
      ],
      ["not a seal", "Fe26.2**not*a*real*seal"],
      ["empty", ""],
    ];
  };

  it("gives a fresh, empty session for a tampered, truncated or other-secret cookie", async () => {
    const { cookie } = await signedIn();
    for (const [label, forged] of await forgedCookies(cookie)) {
      const page = await send(shop.server.url, "/widgets/new", {
        headers: { cookie: `${COOKIE}=${forged}` },
      });
      expect(page.status, label).toBe(200);
      // The flash of the real session ("successfully created") and the forged one never show.
      expect(page.body, label).not.toContain("successfully created");
      expect(page.body, label).not.toContain("INJECTED FLASH");
      const issued = String(page.headers["set-cookie"]?.[0] ?? "");
      expect(issued, label).toMatch(new RegExp(`^${COOKIE}=Fe26\\.2\\*`));
      expect(issued.split(";")[0], label).not.toBe(`${COOKIE}=${forged}`);
      refusals[`session: ${label}`] = page.status;
    }
  });

  it("refuses a form post with a missing, wrong or other-session token (403)", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const cases: [string, Browser, Record<string, string>, Record<string, string>?][] = [
      ["missing token", a.browser, { title: "t" }],
      ["empty token", a.browser, { title: "t", authenticity_token: "" }],
      ["wrong token", a.browser, { title: "t", authenticity_token: "A".repeat(86) }],
      ["garbage token", a.browser, { title: "t", authenticity_token: "%%%" }],
      ["other session's token", a.browser, { title: "t", authenticity_token: b.token }],
      [
        "other session's token in the header",
        a.browser,
        { title: "t" },
        { "x-csrf-token": b.token },
      ],
      [
        "own token, cross-origin",
        a.browser,
        { title: "t", authenticity_token: a.token },
        { origin: "http://evil.example" },
      ],
      [
        "own token, cross-site fetch",
        a.browser,
        { title: "t", authenticity_token: a.token },
        { "sec-fetch-site": "cross-site" },
      ],
    ];
    for (const [label, browser, fields, headers] of cases) {
      const reply = await browser.post("/widgets", fields, {
        accept: "application/json",
        ...headers,
      });
      expect(reply.status, label).toBe(403);
      refusals[`csrf: ${label}`] = reply.status;
    }
    // Control: the right token from the right session goes through, in the field or the header.
    expect(
      (await a.browser.post("/widgets", { title: "ok", authenticity_token: a.token })).status,
    ).toBe(303);
    expect(
      (await a.browser.post("/widgets", { title: "ok" }, { "x-csrf-token": a.token })).status,
    ).toBe(303);
    const titles = (await shop.db.rows("widgets")).map((r) => r.title);
    expect(titles.filter((t) => t === "t")).toEqual([]);
  });

  it("refuses cross-origin JSON and XML writes (403) but takes same-origin ones", async () => {
    const { browser } = await signedIn();
    const post = (type: string, body: string, headers: Record<string, string>) =>
      send(shop.server.url, "/widgets", {
        method: "POST",
        headers: {
          "content-type": type,
          accept: "application/json",
          cookie: browser.cookieHeader,
          ...headers,
        },
        body,
      });
    const json = JSON.stringify({ title: "cross" });
    const xml = "<widget><title>cross</title></widget>";
    const cases: [string, number][] = [
      [
        "json, Origin evil",
        (await post("application/json", json, { origin: "http://evil.example" })).status,
      ],
      ["json, Origin null", (await post("application/json", json, { origin: "null" })).status],
      [
        "json, Sec-Fetch-Site cross-site",
        (await post("application/json", json, { "sec-fetch-site": "cross-site" })).status,
      ],
      [
        "xml, Origin evil",
        (await post("application/xml", xml, { origin: "https://evil.example" })).status,
      ],
    ];
    for (const [label, status] of cases) {
      expect(status, label).toBe(403);
      refusals[`cross-origin: ${label}`] = status;
    }
    const same = await post("application/json", JSON.stringify({ title: "same" }), {
      origin: shop.server.url,
    });
    expect(same.status).toBe(201);
    expect((await shop.db.rows("widgets")).some((r) => r.title === "cross")).toBe(false);
  });
});
