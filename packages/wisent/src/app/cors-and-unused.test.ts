import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { Resource } from "../resources/resource.js";
import { App } from "./app.js";

class GadgetsResource extends Resource<"gadget_id"> {
  override list(c: Context) {
    return c.json([]);
  }
  override show(c: Context) {
    return c.json({ id: c.req.param("gadget_id") });
  }
}

describe("App's cors option (Hono's cors middleware)", () => {
  it("cors: true allows any origin, preflights included", async () => {
    const app = new App({ name: "api", env: "test", api: true, cors: true });
    app.resource("/gadgets", new GadgetsResource());
    const res = await app.fetch(
      new Request("http://localhost/gadgets", { headers: { origin: "https://elsewhere.example" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const preflight = await app.fetch(
      new Request("http://localhost/gadgets/1", {
        method: "OPTIONS",
        headers: {
          origin: "https://elsewhere.example",
          "access-control-request-method": "PUT",
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PUT");
  });

  it("takes Hono's options: one allowed origin, credentials", async () => {
    const app = new App({
      name: "api",
      env: "test",
      api: true,
      cors: { origin: "https://app.example", credentials: true },
    });
    app.resource("/gadgets", new GadgetsResource());
    const asked = (origin: string) =>
      app.fetch(new Request("http://localhost/gadgets", { headers: { origin } }));
    const allowed = await asked("https://app.example");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(allowed.headers.get("access-control-allow-credentials")).toBe("true");
    expect((await asked("https://evil.example")).headers.get("access-control-allow-origin")).toBe(
      null,
    );
  });

  it("sends no CORS headers without the option", async () => {
    const app = new App({ name: "api", env: "test", api: true });
    app.resource("/gadgets", new GadgetsResource());
    const res = await app.fetch(
      new Request("http://localhost/gadgets", { headers: { origin: "https://x.example" } }),
    );
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("App.unusedRoutes (wisent routes --unused)", () => {
  it("lists the resource operations still answering 'resource not implemented'", () => {
    const app = new App({ name: "api", env: "test", api: true });
    app.get("/", (c) => c.json({}));
    app.resource("/gadgets", new GadgetsResource());
    expect(app.unusedRoutes().map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual([
      "POST /gadgets/ GadgetsResource.Create",
      "PUT /gadgets/{gadget_id}/ GadgetsResource.Update",
      "DELETE /gadgets/{gadget_id}/ GadgetsResource.Destroy",
    ]);
  });
});
