import type { Context, MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { HttpError } from "../base/http-error.js";
import type { Logger } from "../http/logger.js";
import { phased } from "../kernel/compose.js";
import { App } from "./app.js";
import { microtaskTurns } from "./test-support/microtask-turns.js";

// App.fetch calls the routes it composed itself, without Hono's `.then(...).catch(...)` around
// their promise: these pin down that Hono's own answers (its error and not-found handlers,
// HEAD) stay as they were.

const JSON_ACCEPT = { headers: { Accept: "application/json" } };

/** An app whose routes all have one phased layer (so they are composed). */
function appWithMiddleware(seen: string[] = []): App {
  const app = new App({ name: "t", env: "test", api: true });
  app.use(
    phased({
      after: (c) => {
        seen.push(`after ${c.res.status}`);
      },
    }),
  );
  return app;
}

/** A logger that fails, so that the error response itself throws (a double fault). */
const failingLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {
    throw new Error("the log is down");
  },
};
const withFailingLogger: MiddlewareHandler = phased({
  before: (c) => {
    c.set("logger", failingLogger);
  },
});

describe("App.fetch on a composed route", () => {
  it("answers an async handler one turn after its promise settles", async () => {
    const app = appWithMiddleware();
    const ok = new Response("x");
    let settle: (res: Response) => void = () => {};
    app.get("/x", () => new Promise<Response>((resolve) => (settle = resolve)));
    const answer = app.fetch(new Request("http://localhost/x")) as Promise<Response>;
    const { turns } = await microtaskTurns(() => {
      settle(ok);
      return answer;
    });
    expect(await answer).toBe(ok);
    // The route's continuation and this await (through Hono's then and catch: four).
    expect(turns).toBeLessThanOrEqual(2);
  });

  it("answers a synchronous route synchronously", () => {
    const seen: string[] = [];
    const app = appWithMiddleware(seen);
    app.get("/x", (c) => c.text("x"));
    expect(app.fetch(new Request("http://localhost/x"))).toBeInstanceOf(Response);
    expect(seen).toEqual(["after 200"]);
  });

  it.each([
    ["a synchronous", () => {}],
    ["an async", async () => {}],
  ])(
    "sends an Error the error response throws to Hono's error handler (%s handler)",
    async (_, pause) => {
      const app = new App({ name: "t", env: "test", api: true });
      app.hono.onError((err, c) => c.text(`hono's handler: ${err.message}`, 599 as never));
      app.use(withFailingLogger);
      app.get("/x", async () => {
        await pause();
        throw new Error("boom");
      });
      app.get("/y", () => {
        throw new Error("boom");
      });
      for (const path of ["/x", "/y"]) {
        const res = await app.fetch(new Request(`http://localhost${path}`, JSON_ACCEPT));
        expect([res.status, await res.text()]).toEqual([599, "hono's handler: the log is down"]);
      }
    },
  );

  it("throws on what is not an Error, as Hono does", async () => {
    const app = appWithMiddleware();
    app.get("/sync", () => {
      throw "sync";
    });
    app.get("/async", async () => {
      throw "async";
    });
    expect(() => app.fetch(new Request("http://localhost/sync"))).toThrow("sync");
    await expect(app.fetch(new Request("http://localhost/async"))).rejects.toBe("async");
  });

  it("runs Hono's not-found handler, as replaced by hono.notFound, below a handler's next()", async () => {
    const seen: string[] = [];
    const app = appWithMiddleware(seen);
    app.get("/fall", (_c: Context, next) => next() as never);
    const res = await app.fetch(new Request("http://localhost/fall", JSON_ACCEPT));
    // The App's own: a 404 rendered by the route's error handling.
    expect(res.status).toBe(404);
    app.hono.notFound((c) => c.text("custom not found", 404));
    const custom = await app.fetch(new Request("http://localhost/fall", JSON_ACCEPT));
    expect([custom.status, await custom.text()]).toEqual([404, "custom not found"]);
    expect(seen).toEqual(["after 404", "after 404"]);
  });

  it("gives c.notFound() the not-found handler, as Hono's Context has it", async () => {
    const app = appWithMiddleware();
    app.get("/gone", (c) => c.notFound());
    const res = await app.fetch(new Request("http://localhost/gone", JSON_ACCEPT));
    expect([res.status, (await res.json()).error]).toEqual([404, "path not found: GET /gone/"]);
  });

  it("still answers HEAD, a path no route matched and a 405 through Hono", async () => {
    const seen: string[] = [];
    const app = appWithMiddleware(seen);
    app.get("/x", async (c) => c.text("body"));
    const head = await app.fetch(new Request("http://localhost/x", { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const missing = await app.fetch(new Request("http://localhost/nope", JSON_ACCEPT));
    expect(missing.status).toBe(404);
    const refused = await app.fetch(
      new Request("http://localhost/x", { ...JSON_ACCEPT, method: "DELETE" }),
    );
    expect([refused.status, refused.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
    expect(seen).toEqual(["after 200", "after 404", "after 405"]);
  });

  it("gives the handler Hono's path, parameters, route path and env", async () => {
    const app = appWithMiddleware();
    app.get("/widgets/{widget_id}", async (c) =>
      c.json({
        path: c.req.path,
        id: c.req.param("widget_id"),
        route: c.req.routePath,
        env: c.env,
      }),
    );
    const res = await app.fetch(new Request("http://localhost/widgets/a%20b/"), { a: 1 });
    expect(await res.json()).toEqual({
      path: "/widgets/a b",
      id: "a b",
      route: "/widgets/:widget_id",
      env: { a: 1 },
    });
  });

  it("turns an HttpError from an async handler into its response, middleware seeing it", async () => {
    const seen: string[] = [];
    const app = appWithMiddleware(seen);
    app.get("/x", async () => {
      throw new HttpError(409, "taken");
    });
    const res = await app.fetch(new Request("http://localhost/x", JSON_ACCEPT));
    expect([res.status, (await res.json()).error]).toEqual([409, "taken"]);
    expect(seen).toEqual(["after 409"]);
  });
});
