/**
 * Slow: `wisent g r image caption file:attachment --parent widget` in a web app and in an API app
 * made by `wisent new --dev`; each app type-checks and lints, then runs a test written into it
 * that uploads through the app's form (web), multipart JSON and the typed client (both), on the
 * local disk (web) and on an S3-compatible server (API: s3rver on 127.0.0.1, by STORAGE_URL).
 * The browser's own upload (Chromium) is e2e/browser/shop.browser.test.ts.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectTypeChecksAndLints,
  inApp,
  migrateAndTest,
  newApp,
  SLOW,
  tool,
  wisent,
} from "./test-support/generated-app.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "wisent-attachments-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The generated stub tests (each fails until written), but the one replaced here. */
function removeStubs(app: string): void {
  for (const file of [
    "src/actions/widgets.test.ts",
    "src/models/widget.test.ts",
    "src/models/image.test.ts",
  ]) {
    rmSync(join(app, file));
  }
}

/** The test written into each app: `web` adds the form and the pages. */
function uploadTest(web: boolean): string {
  return `import { beforeAll, describe, expect, it } from "vitest";
${web ? "" : 'import { createClient } from "wisent/client";\n'}import { testClient } from "wisent/testing";
import { app } from "../app.js";
import { db } from "../db.js";
import { Widget } from "../models/widget.js";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const png = (name = "cat.png") => new File([PNG], name, { type: "image/png" });
/** A Windows executable's header, named and typed as a PNG. */
const disguised = () =>
  new File([Buffer.concat([Buffer.from("MZ"), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from("PE\\0\\0"), Buffer.alloc(200)])], "cat.png", { type: "image/png" });
${web ? "" : 'const api = createClient<typeof import("../app.js")>({ fetch: app.fetch });'}
const json = () => testClient(app, { headers: { accept: "application/json" } });

let widget: Widget;
beforeAll(async () => {
  widget = await Widget.create(db.kysely, { name: "Gear" });
});

/** The bytes at a file URL: streamed by the app, or from the storage it redirects to. */
async function download(url: string): Promise<Response> {
  const res = await json().get(url);
  return res.status === 302 ? fetch(res.headers.get("location")!) : res;
}

describe("images with a file", () => {
  it("takes a PNG as multipart (${web ? "JSON answers" : "the typed client"}), serves it, deletes replaced and destroyed files", async () => {
${
  web
    ? `    // A web app's multipart body is a form to CSRF: the test client adds the token.
    const images = \`/widgets/\${widget.id}/images\`;
    const res = await json().post(images, { form: { caption: "Cat", file: png() } });
    expect(res.status).toBe(201);
    const created = await res.json();
    const { file } = created;
    const update = await json().put(\`\${images}/\${created.id}\`, { form: { file: png("dog.png") } });
    const replaced = await update.json();
    expect(replaced.file.name).toBe("dog.png");`
    : `    const made = await api.widgetImages.create({ widget_id: widget.id }, { caption: "Cat", file: png() });
    if (!made.ok) throw new Error(\`create failed: \${made.status}\`);
    const created = made.data;
    // The file is optional (null when none was sent): these were sent one.
    const { file } = created;
    if (!file) throw new Error("the created image has no file");
    const update = await api.widgetImages.update({ widget_id: widget.id, image_id: created.id }, { file: png("dog.png") });
    if (!update.ok) throw new Error(\`update failed: \${update.status}\`);
    const replaced = update.data;
    if (!replaced.file) throw new Error("the updated image has no file");
    expect(replaced.file.name).toBe("dog.png");`
}
    expect(file).toMatchObject({ name: "cat.png", type: "image/png", size: PNG.length });
    expect((await download(replaced.file.url)).status).toBe(200);
    const served = await download(replaced.file.url);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await download(file.url)).status).toBe(404);
${
  web
    ? `    expect((await json().delete(\`\${images}/\${created.id}\`)).status).toBe(200);`
    : `    expect((await api.widgetImages.destroy({ widget_id: widget.id, image_id: created.id })).ok).toBe(true);`
}
    expect((await download(replaced.file.url)).status).toBe(404);
  });

  it("refuses an executable named cat.png by its bytes, naming the field", async () => {
    const res = await json().post(\`/widgets/\${widget.id}/images\`, { form: { caption: "Cat", file: disguised() } });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.file[0]).toMatch(/^File must be any image, application\\/pdf/);
  });
${
  web
    ? `
  it("takes a PNG through the form and shows its thumbnail on the image's page, linked to it", async () => {
    const browser = testClient(app);
    const res = await browser.post(\`/widgets/\${widget.id}/images\`, { form: { caption: "Cat", file: png() } });
    expect(res.status).toBe(303);
    const page = await browser.get(res.headers.get("location")!);
    const html = await page.text();
    const [, src, thumb] = /<a href="([^"]+)"><img src="([^"]+)" alt="cat.png"/.exec(html) ?? [];
    expect(src).toMatch(/^\\/files\\//);
    expect(thumb).toBe(\`\${src}?variant=thumb\`);
    const image = await browser.get(src!);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lists the images as thumbnails, made on the first request", async () => {
    const browser = testClient(app);
    const res = await browser.post(\`/widgets/\${widget.id}/images\`, { form: { caption: "Cat", file: png() } });
    expect(res.status).toBe(303);
    const html = await (await browser.get(\`/widgets/\${widget.id}/images\`)).text();
    const src = /<img src="([^"]+)" alt="cat.png"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(src).toMatch(/^\\/files\\/.+\\?variant=thumb$/);
    const thumb = await browser.get(src!);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
  });

  it("has a multipart form with a file input", async () => {
    const html = await (await testClient(app).get(\`/widgets/\${widget.id}/images/new\`)).text();
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toMatch(/<input type="file" id="image_file" name="file"/);
  });
`
    : ""
}});
`;
}

describe("attachments in generated apps", { timeout: SLOW }, () => {
  it("a web app: the form and multipart JSON, on the local disk", async () => {
    const app = await newApp(root, "gallery");
    await wisent(app, ["g", "r", "widget", "name"]);
    await wisent(app, ["g", "r", "image", "caption", "file:attachment", "--parent", "widget"]);
    // The generated code type-checks and lints; the test written here type-checks.
    await expectTypeChecksAndLints(app);
    writeFileSync(join(app, "src/actions/images.test.ts"), uploadTest(true));
    expect((await inApp(app, tool.tsc, ["--noEmit"])).output).toBe("");
    removeStubs(app);
    // A folder of the test's own: the test environment's default (tmp/test-storage/) is emptied
    // when the run ends.
    const result = await migrateAndTest(app, { STORAGE_URL: "file:kept-uploads" });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+7 passed/);
    // The images the tests kept are in the test environment's namespace, gallery/test/ (one with
    // its thumbnail under variants/); the replaced and destroyed ones are gone.
    const files = join(app, "kept-uploads", "gallery", "test");
    const kept = readdirSync(files);
    expect(kept.filter((name) => name !== "variants")).toHaveLength(2);
    expect(readdirSync(join(files, "variants"))).toHaveLength(1);
  });

  it("an API app: multipart JSON and the typed client, on S3 (s3rver)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wisent-attachments-s3-"));
    const s3 = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: dir,
      configureBuckets: [{ name: "media", configs: [] }],
    });
    const { port } = await s3.run();
    try {
      const app = await newApp(root, "media", ["--api"]);
      await wisent(app, ["g", "r", "widget", "name"]);
      await wisent(app, ["g", "r", "image", "caption", "file:attachment", "--parent", "widget"]);
      await expectTypeChecksAndLints(app);
      writeFileSync(join(app, "src/actions/images.test.ts"), uploadTest(false));
      expect((await inApp(app, tool.tsc, ["--noEmit"])).output).toBe("");
      removeStubs(app);
      const result = await migrateAndTest(app, {
        STORAGE_URL: `s3://S3RVER:S3RVER@media?endpoint=http://127.0.0.1:${port}&region=us-east-1`,
      });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/Tests\s+4 passed/);
    } finally {
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
