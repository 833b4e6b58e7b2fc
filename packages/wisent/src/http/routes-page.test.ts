import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { HttpError } from "../base/http-error.js";
import { paramLogger } from "../middleware/param-logger/index.js";
import { silentLogger } from "./logger.js";

function appIn(env: string, api = false): App {
  const app = new App({ name: "shop", env, api });
  app.use(paramLogger({ logger: silentLogger }));
  const WidgetsIndex = (c: Context) => c.text("widgets");
  app.get("/widgets", WidgetsIndex).name("widgetsPath");
  app.post("/widgets", WidgetsIndex).name("createWidgetPath");
  return app;
}

function get(app: App, path: string, accept = "text/html"): Promise<Response> {
  return Promise.resolve(
    app.fetch(new Request(`http://localhost${path}`, { headers: { accept } })),
  );
}

describe("the 404 of a request no route matched", () => {
  it("lists the app's routes in development, styled, without a stack trace", async () => {
    const res = await get(appIn("development"), "/nope");
    expect(res.status).toBe(404);
    const page = await res.text();
    expect(page).toContain("path not found: GET /nope/");
    expect(page).toContain("<th>Method</th><th>Path</th><th>Name</th><th>Handler</th>");
    expect(page).toContain(
      "<tr><td><code>GET</code></td><td><code>/widgets/</code></td><td>widgetsPath</td><td><code>WidgetsIndex</code></td></tr>",
    );
    expect(page).toContain("createWidgetPath");
    expect(page).toContain('<link rel="stylesheet" href="/assets/application.css">');
    expect(page).not.toContain("<pre>");
    expect(page).not.toMatch(/at \S+ \(/);
  });

  it("links no scaffold stylesheet in an API app (its inline styles stand alone)", async () => {
    const res = await get(appIn("development", true), "/nope");
    const page = await res.text();
    expect(page).toContain("widgetsPath");
    expect(page).not.toContain("application.css");
    expect(page).toContain("<style>");
  });

  it.each(["production", "test"])("stays a plain page in %s", async (env) => {
    const res = await get(appIn(env), "/nope");
    expect(res.status).toBe(404);
    const page = await res.text();
    expect(page).toContain("<h1>404 Not Found</h1>");
    expect(page).not.toContain("widgetsPath");
  });

  it("answers JSON without a trace or the routes, in development too", async () => {
    const res = await get(appIn("development"), "/nope.json", "*/*");
    expect(await res.json()).toEqual({
      error: "path not found: GET /nope/",
      code: 404,
      error_code: "E_ROUTE_NOT_FOUND",
    });
  });

  it("keeps a handler's own 404 (a missing record) a plain page in development", async () => {
    const app = appIn("development");
    app.get("/gone", () => {
      throw new HttpError(404, "widget 9 not found");
    });
    const page = await (await get(app, "/gone")).text();
    expect(page).toContain("widget 9 not found");
    expect(page).not.toContain("widgetsPath");
  });
});
