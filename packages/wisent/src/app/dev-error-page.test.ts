import type { Context } from "hono";
import { describe, expect, it } from "vitest";
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
