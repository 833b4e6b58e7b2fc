// Titles with HTML/script are escaped on every page; SQL metacharacters are stored verbatim and
// never change a query (SQLite and PostgreSQL); static path traversal is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../support/server.js";
import { Browser, tokenFrom } from "./support/browser.js";
import {
  postgresDatabase,
  sharedPostgresAvailable,
  sqliteDatabase,
  type TestDatabase,
} from "./support/databases.js";
import { report } from "./support/figures.js";
import { send, sendJson } from "./support/http.js";
import { startShop, useShopOnSqlite } from "./support/shop.js";

const postgres = await sharedPostgresAvailable();

const SCRIPTS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  "</textarea><script>alert(2)</script>",
  "</title><script>alert(3)</script>",
  "<!-- <iframe src=//evil.example>",
];
const RAW_MARKERS = ["<script>alert", "<img src=x", "<svg onload", "<iframe"];

const SQL = [
  "'; DROP TABLE widgets; --",
  '" OR 1=1 --',
  "Robert'); DELETE FROM widgets WHERE ('1'='1",
  "100% _wild_ \\ back\\slash",
  "$1 $$ ?? :name @p0",
  "\u00e9\u4e2d\u{1f600} \t tab",
];

describe.each([
  ["sqlite", true],
  ["postgres", postgres],
] as const)("hostile input on %s", (dialect, available) => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    if (!available) return;
    db = dialect === "sqlite" ? await sqliteDatabase() : await postgresDatabase();
    server = await startShop({ databaseUrl: db.url });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it.skipIf(!available)("escapes HTML and script in titles on every page", async () => {
    const browser = new Browser(server.url);
    let pages = 0;
    const check = (html: string, where: string) => {
      pages++;
      for (const marker of RAW_MARKERS) {
        expect(html.includes(marker), `${marker} unescaped on ${where}`).toBe(false);
      }
    };
    for (const title of SCRIPTS) {
      const form = await browser.get("/widgets/new");
      const created = await browser.post("/widgets", {
        authenticity_token: tokenFrom(form.body),
        title,
        description: title,
      });
      expect(created.status).toBe(303);
      const path = String(created.headers.location);
      const show = await browser.get(path);
      expect(show.body).toContain(escapeHtml(title));
      check(show.body, `show ${title}`);
      check((await browser.get(`${path}/edit`)).body, `edit ${title}`);
      // Re-rendered form with errors (title blank) echoing the hostile description.
      const invalid = await browser.post("/widgets", {
        authenticity_token: tokenFrom(form.body),
        title: "",
        description: title,
      });
      expect(invalid.status).toBe(422);
      check(invalid.body, `422 form ${title}`);
      const xml = await send(server.url, `${path}.xml`);
      check(xml.body, `xml ${title}`);
      expect(JSON.parse((await sendJson(server.url, "GET", path)).body).title).toBe(title);
    }
    // A title that is no string at all (a JSON array nested 10,000 deep), re-rendered in the form.
    const deep = await send(server.url, "/widgets", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/html" },
      body: `{"title":${"[".repeat(10_000)}1${"]".repeat(10_000)}}`,
    });
    expect(deep.status).toBe(422);
    check((await browser.get("/widgets")).body, "index");
    check(
      (await browser.get(`/widgets?page=${encodeURIComponent(SCRIPTS[0]!)}`)).body,
      "index with hostile page",
    );
    check((await send(server.url, `/${encodeURIComponent(SCRIPTS[0]!)}`)).body, "404 page");
    report(`escaping (${dialect})`, { titles: SCRIPTS.length, pages_checked: pages });
  });

  it.skipIf(!available)(
    "stores SQL metacharacters verbatim and never changes a query",
    async () => {
      const ids: string[] = [];
      for (const title of SQL) {
        const created = await sendJson(server.url, "POST", "/widgets", {
          title,
          description: title,
        });
        expect(created.status).toBe(201);
        const widget = JSON.parse(created.body) as { id: string; title: string };
        expect(widget.title).toBe(title.trim());
        ids.push(widget.id);
      }
      const before = (await db.rows("widgets")).length;
      const probes = [
        `/widgets/${encodeURIComponent("1' OR '1'='1")}`,
        `/widgets/${encodeURIComponent("1; DROP TABLE widgets")}`,
        `/widgets/${encodeURIComponent(`${ids[0]}' OR '1'='1`)}`,
        `/widgets?page=${encodeURIComponent("1; DROP TABLE widgets")}&per_page=${encodeURIComponent("1 OR 1=1")}`,
        `/widgets/${ids[0]}/images?page=${encodeURIComponent("' OR 1=1 --")}`,
      ];
      const statuses: number[] = [];
      for (const probe of probes) {
        const reply = await sendJson(server.url, "GET", probe);
        statuses.push(reply.status);
        expect(reply.status).toBeLessThan(500);
      }
      expect(statuses.slice(0, 3)).toEqual([404, 404, 404]);
      const update = await sendJson(
        server.url,
        "PUT",
        `/widgets/${encodeURIComponent(`${ids[1]}' OR '1'='1`)}`,
        {
          title: "everyone",
        },
      );
      expect(update.status).toBe(404);
      const destroy = await sendJson(
        server.url,
        "DELETE",
        `/widgets/${encodeURIComponent("x' OR 1=1 --")}`,
        {},
      );
      expect(destroy.status).toBe(404);

      // A NUL byte (PostgreSQL text cannot hold one) and an over-long value: refused, never a 500.
      const nul = await sendJson(server.url, "POST", "/widgets", { title: "nul\u0000byte" });
      expect(nul.status, nul.body).toBeLessThan(500);
      const long = await sendJson(server.url, "POST", "/widgets", { title: "x".repeat(300) });
      expect(long.status, long.body).toBe(422);
      statuses.push(nul.status, long.status);

      const rows = await db.rows("widgets");
      expect(rows).toHaveLength(before + (nul.status === 201 ? 1 : 0));
      for (const [i, title] of SQL.entries()) {
        const row = rows.find((r) => r.id === ids[i])!;
        expect(row.title).toBe(title.trim());
        expect(row.description).toBe(title);
      }
      expect(rows.some((r) => r.title === "everyone")).toBe(false);
      report(`SQL metacharacters (${dialect})`, {
        stored: SQL.length,
        probes: probes.length + 2,
        statuses,
      });
    },
  );
});

describe("static files: path traversal", () => {
  const shop = useShopOnSqlite();

  // public/ is examples/shop/public; ../src/app.ts, ../package.json and ../../../package.json (the
  // repository's) sit above it.
  const ATTEMPTS = [
    "/../src/app.ts",
    "/..%2fsrc%2fapp.ts",
    "/%2e%2e/src/app.ts",
    "/%2e%2e%2fsrc%2fapp.ts",
    "/.%2e/src/app.ts",
    "/%2E%2E/src/app.ts",
    "/..%5csrc%5capp.ts",
    "/..\\src\\app.ts",
    "/%252e%252e/src/app.ts",
    "/%c0%ae%c0%ae/src/app.ts",
    "/assets/application.css/../../../src/app.ts",
    "/assets/application.js/..%2f..%2f..%2fsrc%2fapp.ts",
    "/....//src/app.ts",
    "/..;/src/app.ts",
    "/../../../../package.json",
    "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/package.json",
    "/assets/application.css%00.js",
    "//etc/passwd",
    "/%2fetc%2fpasswd",
    "/../../../../../../../../etc/passwd",
  ];

  it("refuses every /../ and encoded variant and serves only what is in public/", async () => {
    const statuses: Record<number, number> = {};
    for (const path of ATTEMPTS) {
      const reply = await send(shop.server.url, path);
      statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
      expect([400, 404], `${path} -> ${reply.status}`).toContain(reply.status);
      expect(reply.body).not.toContain("new App(");
      expect(reply.body).not.toContain('"name": "shop"');
      expect(reply.body).not.toContain("wisent-monorepo");
      expect(reply.body).not.toContain("root:x:0:0");
    }
    const css = await send(shop.server.url, "/assets/application.css");
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    report("static path traversal", { attempts: ATTEMPTS.length, statuses });
  });
});

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
