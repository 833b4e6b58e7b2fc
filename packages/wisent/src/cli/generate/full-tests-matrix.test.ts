/**
 * Slow: the `--tests=full` matrix (test-support/full-tests-matrix.ts) in a web app and in an API
 * app, each made by `wisent new --dev` with `wisent g auth`: every attribute type, with and
 * without `:uniq`, owned and not, nested and not, alone and combined. Each app type-checks,
 * lints clean (`npm run lint`) and passes its generated tests as generated (`npm test`), which
 * upload real PNGs; the files they upload go to tmp/test-storage/, removed after the run, never
 * to development's storage/. The web app also gets a test written here for what a first app's
 * pages show: exact decimals with their scale, a form's step and accept (narrowed with the
 * model's types), the list's actions apart, the show page's thumbnail.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateArgs, MATRIX } from "./test-support/full-tests-matrix.js";
import {
  expectTypeChecksAndLints,
  migrateAndTest,
  newApp,
  SLOW,
  wisent,
} from "./test-support/generated-app.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-full-matrix-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a first app's pages show, checked in the web app (a test of the app's own). */
const PAGES_TEST = `import { describe, expect, it } from "vitest";
import { samplePng, signIn, testClient } from "wisent/testing";
import { app } from "../app.js";
import { db } from "../db.js";
import { User } from "../models/user.js";

/** A page's text as a reader sees it: tags out, spaces kept. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\\s+/g, " ");

describe("a first app's pages", () => {
  it("keeps a decimal exact, with its scale, in JSON, XML, pages and forms", async () => {
    const browser = testClient(app);
    const made = await browser.post("/quotes", { form: { amount: "16" } });
    expect(made.status).toBe(303);
    const path = made.headers.get("location") ?? "";
    expect(await (await browser.get(path)).text()).toContain("<dd>16.00</dd>");
    const json = await testClient(app, { headers: { accept: "application/json" } }).get(path);
    expect((await json.json()).amount).toBe("16.00");
    const xml = await testClient(app, { headers: { accept: "application/xml" } }).get(path);
    expect(await xml.text()).toContain("<amount>16.00</amount>");
    const edit = await (await browser.get(\`\${path}/edit\`)).text();
    expect(edit).toContain('step="0.01"');
    expect(edit).toContain('value="16.00"');
  });

  it("spaces the list's actions apart", async () => {
    const list = await (await testClient(app).get("/quotes")).text();
    expect(textOf(list)).toContain("View Edit Destroy");
  });

  it("accepts in the form what the model accepts, and shows a thumbnail, not the original", async () => {
    const browser = testClient(app);
    const ada = await User.create(db.kysely, {
      email: \`ada-\${crypto.randomUUID()}@example.com\`,
      password_digest: "not-a-password-hash",
    });
    await signIn(browser, ada);
    const form = await (await browser.get("/photos/new")).text();
    expect(form).toMatch(/<input type="file" id="photo_image" name="image" accept="image\\/png"/);
    const made = await browser.post("/photos", { form: { image: samplePng("kindred.png") } });
    expect(made.status).toBe(303);
    const page = await (await browser.get(made.headers.get("location") ?? "")).text();
    // An owned record's file is private: its URL is signed (expires, signature) beside the variant.
    expect(page).toMatch(/<img src="\\/files\\/[^"]+(\\?|&amp;)variant=thumb" alt="kindred.png"/);
  });
});
`;

describe.each([
  ["a web app", "shelf", [] as string[]],
  ["an API app", "depot", ["--api"]],
])("the --tests=full matrix in %s", { timeout: SLOW }, (_, name, flags) => {
  let app: string;
  const web = flags.length === 0;
  beforeAll(async () => {
    app = await newApp(root, name, flags);
    await wisent(app, ["g", "auth"]);
    for (const resource of MATRIX) await wisent(app, generateArgs(resource));
    if (web) {
      // A developer narrows what a photo may be: the form's accept follows the model.
      const model = join(app, "src/models/photo.ts");
      writeFileSync(
        model,
        readFileSync(model, "utf8").replace('["image/*", "application/pdf"]', '["image/png"]'),
      );
      writeFileSync(join(app, "src/actions/first-app-pages.test.ts"), PAGES_TEST);
    }
  }, SLOW);

  it("type-checks and lints clean (.wisent/generated.json included)", async () => {
    expect(readFileSync(join(app, ".wisent/generated.json"), "utf8")).toContain("decimal{8.3}");
    await expectTypeChecksAndLints(app);
  });

  it("passes its generated tests as generated, uploading real files into tmp/, removed after", async () => {
    const tests = readFileSync(join(app, "src/actions/books.test.ts"), "utf8");
    expect(tests).toContain('cover: samplePng("cat.png")');
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+\d+ passed/);
    expect(result.output).not.toMatch(/failed|skipped/);
    // Development's storage/ is never written; the test storage is gone with the run.
    expect(existsSync(join(app, "storage"))).toBe(false);
    expect(existsSync(join(app, "tmp/test-storage"))).toBe(false);
  });
});
