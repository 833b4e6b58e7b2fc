import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runInThisContext } from "node:vm";
import { build } from "esbuild";
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramLogger } from "../middleware/param-logger/param-logger.js";
import { securityHeaders } from "../middleware/security-headers/security-headers.js";
import { Resource } from "../resources/resource.js";
import { App } from "./app.js";

const quiet = { info() {}, warn() {}, error() {} };

class WidgetsResource extends Resource<"widget_id"> {
  override show(_c: Context): Response {
    const widgets: { name: string }[] = [];
    return new Response(widgets[0]!.name); // the throwing line
  }
}

/** An app as the web scaffold makes it (strict CSP: styles from 'self' only) in `env`. */
function appIn(env: string) {
  const app = new App({ name: "shop", env });
  app.use(securityHeaders({ contentSecurityPolicy: { styleSrc: ["'self'"] } }));
  app.use(paramLogger({ logger: quiet }));
  app.resource("/widgets", new WidgetsResource());
  return app;
}

const request = (app: App) =>
  app.fetch(
    new Request("http://localhost/widgets/42?page=2&password=hunter2", {
      headers: { accept: "text/html", cookie: "_shop_session=abc" },
    }),
  );

describe("the development error page", () => {
  it("shows the throwing line, the app's frames first, the request filtered and the route", async () => {
    const res = await request(appIn("development"));
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toContain("text/html");
    const page = await res.text();
    const text = page.replace(/<[^>]+>/g, "");
    expect(text).toContain("Cannot read properties of undefined (reading 'name')");
    // The source excerpt of the throwing line (Youch highlights it token by token).
    expect(text).toContain("widgets[0]!.name); // the throwing line");
    // The first frame is this file's; the framework's and node_modules' come after it.
    const frames = [...page.matchAll(/dev-error-page\.test\.ts|node_modules\/[\w@.-]+/g)].map(
      (m) => m[0],
    );
    expect(frames[0]).toBe("dev-error-page.test.ts");
    // The request: method, path, parameters filtered as the param logger filters them.
    expect(page).toContain("/widgets/42");
    expect(page).toContain("[FILTERED]");
    expect(page).not.toContain("hunter2");
    expect(page).not.toContain("abc");
    // The route that matched.
    expect(page).toContain("WidgetsResource.Show");
  });

  it("carries its own nonce'd CSP past the app's strict one", async () => {
    const res = await request(appIn("development"));
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain(`style-src 'nonce-${nonce}'`);
    const page = await res.text();
    const styles = [...page.matchAll(/<style[^>]*>/g)].map((m) => m[0]);
    expect(styles.length).toBeGreaterThan(0);
    for (const style of styles) expect(style).toContain(`nonce="${nonce}"`);
    expect(page).not.toMatch(/<script(?![^>]*nonce=)[^>]*>\s*\S/);
  });

  it("is not shown in production, which keeps the plain answer", async () => {
    const res = await request(appIn("production"));
    expect(res.status).toBe(500);
    const page = await res.text();
    expect(page).toContain("<h1>500 Internal Server Error</h1>");
    expect(page).not.toContain("the throwing line");
    expect(page).not.toContain("hunter2");
    // The app's own policy (with the request's nonce, as every page), not the error page's.
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("content-security-policy")).not.toContain("style-src-attr");
  });
});

describe("the development error page of a build (source maps without the sources' text)", () => {
  let root = "";
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "wisent-dev-page-"));
    writeFileSync(
      join(root, "boom.ts"),
      [
        "// A comment, so that the compiled lines differ from these.",
        "export function fail(): never {",
        "  const widgets: { name: string }[] = [];",
        "  return widgets[0]!.name as never; // the throwing line of the build",
        "}",
        "",
      ].join("\n"),
    );
    // As `wisent build` makes it: a map beside the file, without the sources' text; and once
    // with the text, for a build whose sources are gone.
    for (const [outdir, sourcesContent] of [
      ["dist", false],
      ["dist-with-text", true],
    ] as const) {
      await build({
        absWorkingDir: root,
        entryPoints: ["boom.ts"],
        outdir,
        format: "iife",
        globalName: "built",
        bundle: true,
        sourcemap: true,
        sourcesContent,
        minifyWhitespace: true,
        logLevel: "silent",
      });
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** The page's text for a route that runs the build in `outdir`, loaded exactly as written. */
  async function pageOf(outdir: string): Promise<string> {
    const file = join(root, outdir, "boom.js");
    const { fail } = runInThisContext(`${readFileSync(file, "utf8")}\n;built`, {
      filename: pathToFileURL(file).href,
    }) as { fail: () => never };
    const app = new App({ name: "shop", env: "development" });
    app.use(paramLogger({ logger: quiet }));
    app.get("/boom", () => fail());
    const res = await app.fetch(
      new Request("http://localhost/boom", { headers: { accept: "text/html" } }),
    );
    expect(res.status).toBe(500);
    return (await res.text()).replace(/<[^>]+>/g, "").replace(/&quot;/g, '"');
  }

  it("shows the TypeScript line, read from the file on disk", async () => {
    const text = await pageOf("dist");
    expect(text).toContain("boom.ts");
    expect(text).toContain("// the throwing line of the build");
  });

  it("shows the map's own text when the map has it and the source is gone", async () => {
    rmSync(join(root, "boom.ts"));
    const text = await pageOf("dist-with-text");
    expect(text).toContain("// the throwing line of the build");
  });
});
