/**
 * Slow (minutes): the first app of the getting-started guide, made as a new user makes it, with
 * only the commands the README and the guides print, from `npm create wisent@latest` to a cover
 * seen in production. Wisent comes from a local registry holding this checkout's packed packages
 * (every other package proxied); the database is the local PostgreSQL (a database of this test's
 * own, named in `.env` as the guide says).
 *
 * A reading list: `wisent g auth`, authors, and books nested under authors (a title, a unique
 * ISBN, a `decimal{10,2}` price, a cover image), each owned by the user who made it; the app's
 * generated tests pass untouched, as do its type check and lint; `npm ci` accepts the lock file
 * the installs wrote. Then the Dockerfile's own steps are carried out
 * (e2e/support/dockerfile-runner.ts) and its CMD runs as an unprivileged user of this machine
 * (nobody, standing for the image's `node`), behind a TLS proxy (the test): it prepares its
 * production database, a reader signs up, adds an author and uploads a book's cover through the
 * forms, and the book's page shows the cover's thumbnail, which the server makes (sharp) and
 * serves; another reader sees none of it.
 *
 * Needs the build (`npm run build`), PostgreSQL on 127.0.0.1:5432, and root (to copy files to
 * another owner and run as it).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NPM } from "../../scripts/local-registry/index.mjs";
import { BrowserClient } from "../support/browser-client.js";
import { type LocalRegistry, registryOfThisCheckout } from "../support/checkout-registry.js";
import {
  type BuiltImage,
  buildDockerfile,
  runImage,
  stopImage,
} from "../support/dockerfile-runner.js";
import { freePort } from "../support/server.js";
import { userShell } from "../support/user-shell.js";

const MINUTES = 60_000;
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";
const PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres";
/** The image's user `node` is this machine's nobody: no home, no group of root's, no sudo. */
const NOBODY = { uid: 65534, gid: 65534 };
const asRoot = process.platform === "linux" && userInfo().uid === 0;
const PASSWORD = "correct horse battery staple";

let root: string;
let registry: LocalRegistry;
let shell: ReturnType<typeof userShell>;

function psql(sql: string): void {
  execFileSync("psql", [PG_ADMIN, "-v", "ON_ERROR_STOP=1", "-qc", sql], { stdio: "pipe" });
}

/** The image's CMD (`docker run -e ...`), until it listens; what it printed stays readable. */
const run = (image: BuiltImage, env: Record<string, string>) => runImage(image, env, 2 * MINUTES);

/** Signs a new reader up through the sign-up form; the client then holds the session. */
async function signUp(browser: BrowserClient, email: string): Promise<void> {
  const token = await browser.csrfToken("/registration/new");
  const res = await browser.submit("/registration", token, [
    ["email", email],
    ["password", PASSWORD],
    ["password_confirmation", PASSWORD],
  ]);
  expect(res.status, await res.clone().text()).toBe(303);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-reading-list-"));
  if (!asRoot) return;
  // The image's user must pass through it to the image's files (mkdtemp makes it root's only).
  chmodSync(root, 0o755);
  registry = await registryOfThisCheckout(root);
  shell = userShell(registry.env({}));
}, 5 * MINUTES);

afterAll(async () => {
  await registry?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!asRoot)(
  "a reading list on PostgreSQL, from npm create to a cover's thumbnail in production",
  { timeout: 15 * MINUTES },
  () => {
    const database = `wisent_reading_${process.pid}_${Date.now().toString(36)}`;
    const url = `postgres://postgres@127.0.0.1:5432/${database}`;
    let app: string;
    let image: BuiltImage;

    afterAll(() => {
      for (const name of [database, `${database}_test`, `${database}_production`]) {
        psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    });

    it("npm create wisent@latest, g auth, authors, and books with a cover under authors", async () => {
      const apps = join(root, "apps");
      mkdirSync(apps);
      const created = await shell.ok(
        NPM,
        ["create", "wisent@latest", "readinglist", "--", "--db", "postgres"],
        apps,
      );
      expect(created.stdout).toContain("Created readinglist (web app, postgres).");
      expect(created.stdout).toMatch(/Next steps:\n {2}cd readinglist\n {2}npx wisent db create\n/);
      app = join(apps, "readinglist");
      // The one setting the guide has the user write: the database .env names (here a fresh one).
      writeFileSync(join(app, ".env"), `DATABASE_URL=${url}\n`);
      await shell.ok(NPX, ["wisent", "db", "create"], app);
      const auth = await shell.ok(NPX, ["wisent", "g", "auth"], app);
      expect(auth.stdout).toContain("next: npm install");
      await shell.ok(NPM, ["install"], app);
      await shell.ok(NPX, ["wisent", "g", "r", "author", "name", "--tests=full"], app);
      const books = await shell.ok(
        NPX,
        [
          "wisent",
          ...["g", "r", "book", "title", "isbn:uniq", "price:decimal{10,2}", "cover:attachment"],
          ...["--parent", "author", "--tests=full"],
        ],
        app,
      );
      expect(books.stdout).toContain("npm install sharp");
      await shell.ok(NPM, ["install", "sharp"], app);
      const migrated = await shell.ok(NPX, ["wisent", "migrate"], app);
      expect(migrated.stdout).toMatch(/migrated {2}\d+_create_books/);
    });

    it("passes its generated tests, type check and lint, untouched", async () => {
      const tested = await shell.ok(NPM, ["test"], app);
      expect(tested.stdout).toMatch(/src\/actions\/books\.test\.ts \(\d+ tests\)/);
      expect(tested.stdout).not.toMatch(/skipped|todo/);
      await shell.ok(NPM, ["run", "typecheck"], app);
      await shell.ok(NPM, ["run", "lint"], app);
    });

    it("installs again with npm ci from the lock file npm create and npm install wrote", async () => {
      const ci = await shell.sh(NPM, ["ci"], app);
      expect(ci.stderr).not.toMatch(/Missing: .* from lock file/);
      expect(ci.code, ci.stderr).toBe(0);
    });

    it("builds by the Dockerfile's instructions", async () => {
      const steps: string[] = [];
      const imageRoot = join(root, "image");
      mkdirSync(imageRoot);
      const env = shell.env();
      image = await buildDockerfile(app, {
        root: imageRoot,
        users: { node: NOBODY },
        buildEnv: {
          npm_config_registry: env.npm_config_registry,
          npm_config_userconfig: env.npm_config_userconfig,
          npm_config_cache: env.npm_config_cache,
          npm_config_update_notifier: "false",
          npm_config_nodedir: env.npm_config_nodedir,
        },
        log: (line) => steps.push(line),
      });
      expect(image.user).toEqual(NOBODY);
      expect(existsSync(join(image.workdir, "dist/server.js")), steps.join("\n")).toBe(true);
      expect(existsSync(join(image.workdir, "node_modules/sharp")), "sharp in the image").toBe(
        true,
      );
    });

    it("in production, a reader signs up, uploads a cover, and sees its thumbnail", async () => {
      const port = await freePort();
      const server = await run(image, {
        PORT: String(port),
        // The test's network is 127.0.0.1 only; the test is the TLS proxy in front.
        HOST: "127.0.0.1",
        TRUSTED_PROXIES: "127.0.0.1",
        DATABASE_URL: `${url}_production`,
        SESSION_SECRET: "f39266a74a471508e384ca7da7e1e8fa1cb703dcd5f2dbb7c682c51c1c6d2b61",
        // g auth's reset mail needs a mail server in production; this test sends no mail.
        SMTP_URL: "smtp://127.0.0.1:2525",
      });
      const base = `http://127.0.0.1:${port}`;
      const proxied = { "x-forwarded-proto": "https" };
      try {
        expect(server.log()).toContain(`create  database ${url}_production`);
        const reader = new BrowserClient(base, proxied);
        await signUp(reader, "reader@example.com");

        let token = await reader.csrfToken("/authors/new");
        let res = await reader.submit("/authors", token, [["name", "Octavia E. Butler"]]);
        expect(res.status, await res.clone().text()).toBe(303);
        const author = new URL(res.headers.get("location")!, base).pathname.replace(/\/$/, "");
        expect(author).toMatch(/^\/authors\/[0-9a-f-]{36}$/);

        const cover = await sharp({
          create: { width: 600, height: 900, channels: 3, background: "#7a1f1f" },
        })
          .png()
          .toBuffer();
        token = await reader.csrfToken(`${author}/books/new`);
        res = await reader.upload(`${author}/books`, token, [
          ["title", "Kindred"],
          ["isbn", "978-0-8070-8305-2"],
          ["price", "16"],
          ["cover", new File([new Uint8Array(cover)], "kindred.png", { type: "image/png" })],
        ]);
        expect(res.status, `${await res.clone().text()}\n${server.log()}`).toBe(303);
        const book = new URL(res.headers.get("location")!, base).pathname;

        const page = await reader.page(book);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain("16.00");
        const src = /<img[^>]*\ssrc="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
        expect(src, html).toMatch(/^\/files\/.*[?&]variant=thumb\b/);
        const thumbnail = await reader.request("GET", src!);
        expect(thumbnail.status, server.log()).toBe(200);
        expect(thumbnail.headers.get("content-type")).toBe("image/webp");
        const made = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
        expect([made.format, made.width, made.height]).toEqual(["webp", 213, 320]);

        const json = await reader.json("GET", book);
        expect(await json.json()).toMatchObject({
          title: "Kindred",
          isbn: "978-0-8070-8305-2",
          price: "16.00",
          cover: { name: "kindred.png", type: "image/png", size: cover.length },
        });

        const other = new BrowserClient(base, proxied);
        await signUp(other, "another.reader@example.com");
        expect((await other.page(book)).status).toBe(404);
        expect((await other.page(author)).status).toBe(404);
      } finally {
        expect(await stopImage(server.child)).toBe(0);
      }
    });
  },
);
