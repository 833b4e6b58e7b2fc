import { describe, expect, it } from "vitest";
import { createClient } from "../client/create-client.js";
import { App } from "./app.js";

/** An app in `env` serving its document as `declare` says; the status of GET /openapi.json. */
async function served(env: string, declare: (app: App) => void) {
  const app = new App({ name: "shop", env, api: true });
  app.get("/widgets", (c) => c.json([]));
  declare(app);
  const res = await app.fetch(new Request("http://localhost/openapi.json"));
  const listed = app.routes().some((route) => route.handler === "OpenApiDocument");
  return { status: res.status, listed };
}

describe("app.openapi", () => {
  it.each(["development", "test"])("serves the document in %s", async (env) => {
    expect(await served(env, (app) => app.openapi("/openapi.json"))).toEqual({
      status: 200,
      listed: true,
    });
  });

  it.each(["production", "staging"])(
    "declares no route in %s unless production: true",
    async (env) => {
      expect(await served(env, (app) => app.openapi("/openapi.json"))).toEqual({
        status: 404,
        listed: false,
      });
      expect(
        await served(env, (app) => app.openapi("/openapi.json", { production: true })),
      ).toEqual({ status: 200, listed: true });
    },
  );

  it("tells a client that finds no document in production how to get one", async () => {
    const app = new App({ name: "shop", env: "production", api: true });
    app.get("/widgets", (c) => c.json([]));
    app.openapi("/openapi.json");
    const client = createClient<Record<string, never>>({ fetch: app.fetch }) as unknown as {
      widgets: { list(): Promise<unknown> };
    };
    await expect(client.widgets.list()).rejects.toThrow(
      /answered 404 \(in production the app serves it only with app\.openapi\("\/openapi\.json", \{ production: true \}\); or pass createClient\(\{ document \}\)/,
    );
  });
});
