import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { App } from "./app.js";

function appWithPublicDir(): App {
  const dir = mkdtempSync(join(tmpdir(), "wisent-static-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "assets", "foo.png"), "png-bytes");
  writeFileSync(join(dir, "index.html"), "<h1>hi</h1>");
  writeFileSync(join(dir, "app.json"), '{"a":1}');
  writeFileSync(join(dir, "..", "secret.txt"), "TOP-SECRET-CONTENT");
  const app = new App({ name: "t" });
  app.get("/widgets", (c) => c.text("widgets"));
  app.serveFiles("/", dir);
  return app;
}

const get = (app: App, path: string, headers: Record<string, string> = {}) =>
  app.fetch(new Request(`http://localhost${path}`, { headers }));

describe("serveFiles", () => {
  it("serves a file with ETag, Cache-Control and its content type (Buffalo Test_Router_ServeFiles)", async () => {
    const res = await get(appWithPublicDir(), "/assets/foo.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get("cache-control")).toBe("max-age=31536000");
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(await res.text()).toBe("png-bytes");
  });

  it("answers 304 when the ETag matches", async () => {
    const app = appWithPublicDir();
    const etag = (await get(app, "/assets/foo.png")).headers.get("etag")!;
    expect((await get(app, "/assets/foo.png", { "If-None-Match": etag })).status).toBe(304);
  });

  it("serves files whose extension is also a format (index.html, app.json)", async () => {
    const app = appWithPublicDir();
    expect(await (await get(app, "/index.html")).text()).toBe("<h1>hi</h1>");
    expect(await (await get(app, "/")).text()).toBe("<h1>hi</h1>");
    expect(await (await get(app, "/app.json")).text()).toBe('{"a":1}');
  });

  it("leaves routes declared before it alone", async () => {
    expect(await (await get(appWithPublicDir(), "/widgets")).text()).toBe("widgets");
  });

  it("answers 404 path not found for a missing file", async () => {
    const res = await get(appWithPublicDir(), "/nope.png", { Accept: "application/json" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "path not found: GET /nope.png/" });
  });

  it.each([
    "/..%2fsecret.txt",
    "/assets/..%2F..%2Fsecret.txt",
    "/%2e%2e/secret.txt",
    "/assets/%00x",
  ])("refuses path traversal: %s", async (path) => {
    const res = await get(appWithPublicDir(), path);
    expect([400, 404]).toContain(res.status);
    expect(await res.text()).not.toContain("TOP-SECRET-CONTENT");
  });

  it("answers 400 for an undecodable path (Buffalo Test_Router_InvalidURL)", async () => {
    expect((await get(appWithPublicDir(), "/%E0%A4%A")).status).toBe(400);
  });

  it("answers HEAD with the headers and no body", async () => {
    const res = await appWithPublicDir().fetch(
      new Request("http://localhost/assets/foo.png", { method: "HEAD" }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("9");
    expect(await res.text()).toBe("");
  });

  it.each([
    "/.env",
    "/%2Eenv",
    "/.git/config",
    "/assets/.hidden.png",
    "/outside.txt",
    "/linked-dir/secret.txt",
  ])(
    "answers 404 for %s: dotfiles and symlinks out of the folder are never served",
    async (path) => {
      const dir = mkdtempSync(join(tmpdir(), "wisent-static-"));
      const outside = mkdtempSync(join(tmpdir(), "wisent-outside-"));
      writeFileSync(join(outside, "secret.txt"), "TOP-SECRET-CONTENT");
      mkdirSync(join(dir, "assets"));
      mkdirSync(join(dir, ".git"));
      writeFileSync(join(dir, ".env"), "SESSION_SECRET=TOP-SECRET-CONTENT");
      writeFileSync(join(dir, ".git", "config"), "TOP-SECRET-CONTENT");
      writeFileSync(join(dir, "assets", ".hidden.png"), "TOP-SECRET-CONTENT");
      writeFileSync(join(dir, "assets", "real.png"), "png");
      symlinkSync(join(outside, "secret.txt"), join(dir, "outside.txt"));
      symlinkSync(outside, join(dir, "linked-dir"));
      symlinkSync(join(dir, "assets", "real.png"), join(dir, "inside.png"));
      const app = new App({ name: "t" });
      app.serveFiles("/", dir);
      const res = await get(app, path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("TOP-SECRET-CONTENT");
      // A symlink that stays inside the folder is still served.
      expect((await get(app, "/inside.png")).status).toBe(200);
    },
  );
});
