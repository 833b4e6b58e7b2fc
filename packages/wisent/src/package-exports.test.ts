import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** Runs an ES module snippet with plain Node from the repository root (as a user would after npm ci). */
function runPlainNode(source: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "test" },
  });
}

describe("the built package", () => {
  it("imports into plain Node ESM and answers requests in-process (the library API of docs/guides/routing.md)", () => {
    const out = runPlainNode(`
      import { App, Resource } from "wisent";
      class GadgetsResource extends Resource { list(c) { return c.json(["g"]); } }
      class PartsResource extends Resource {}
      const app = new App({ name: "acme" });
      const gadgets = app.resource("/gadgets", new GadgetsResource());
      gadgets.resource("/parts", new PartsResource());
      const list = await app.fetch(new Request("http://localhost/gadgets"));
      const show = await app.fetch(new Request("http://localhost/gadgets/1", { headers: { accept: "application/json" } }));
      console.log(JSON.stringify({
        routes: app.routes().map((r) => r.method + " " + r.path + " " + r.name),
        list: [list.status, await list.json()],
        show: [show.status, (await show.json()).error],
      }));
    `);
    const result = JSON.parse(out);
    expect(result.list).toEqual([200, ["g"]]);
    expect(result.show).toEqual([404, "resource not implemented"]);
    expect(result.routes).toContain("GET /gadgets/{gadget_id}/parts/{part_id}/ gadgetPartPath");
  });

  it("exposes wisent/testing", () => {
    const out = runPlainNode(
      `import * as testing from "wisent/testing"; console.log(Object.keys(testing).length > 0);`,
    );
    expect(out.trim()).toBe("true");
  });

  it("exposes wisent/client: a typed client over app.fetch, its routes from the served document", () => {
    const out = runPlainNode(`
      import { App, Resource } from "wisent";
      import { createClient } from "wisent/client";
      class GadgetsResource extends Resource {
        list(c) { return c.json([{ id: "g1" }]); }
        show(c) { return c.json({ id: c.req.param("gadget_id") }); }
      }
      const app = new App({ name: "acme", api: true });
      app.openapi("/openapi.json");
      app.resource("/gadgets", new GadgetsResource());
      const api = createClient({ fetch: app.fetch });
      const list = await api.gadgets.list();
      const show = await api.gadgets.show({ gadget_id: "g7" });
      const create = await api.gadgets.create({ name: "x" });
      console.log(JSON.stringify([list.data, show.data, create.status, create.error]));
    `);
    expect(JSON.parse(out)).toEqual([
      [{ id: "g1" }],
      { id: "g7" },
      404,
      "resource not implemented",
    ]);
  });

  it("loads ioredis only when a Redis rate-limit store counts", () => {
    const out = runPlainNode(`
      import { createRequire } from "node:module";
      import { App, rateLimit, redisStore } from "wisent";
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("/ioredis/"));
      const app = new App({ name: "acme", api: true });
      app.use(rateLimit({ limit: 5, window: 60 }));
      app.get("/", (c) => c.json({}));
      await app.fetch(new Request("http://localhost/"));
      const before = loaded();
      const store = redisStore({ prefix: "wisent-test:exports:" + process.pid + ":" });
      await store.hit("k", 1000);
      await store.close();
      console.log(JSON.stringify([before, loaded()]));
    `);
    expect(JSON.parse(out)).toEqual([false, true]);
  });
});
