import { Context, type Handler, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { microtaskTurns } from "../app/test-support/microtask-turns.js";
import { HttpError } from "../base/http-error.js";
import { errorResponse } from "../http/error-response.js";
import { composeRoute, passThrough, phased } from "./compose.js";

describe("route middleware composition", () => {
  it("lets middleware see the handler's response after next(), and change it", async () => {
    const app = new App({ name: "t" });
    app.use(async (c, next) => {
      await next();
      c.res.headers.set("X-Seen", String(c.res.status));
    });
    app.get("/ok", (c) => c.text("ok", 201));
    const res = await app.fetch(new Request("http://localhost/ok"));
    expect([res.status, res.headers.get("x-seen"), await res.text()]).toEqual([201, "201", "ok"]);
  });

  it("turns an error below a middleware into the error response that middleware sees", async () => {
    const seen: unknown[] = [];
    const watch: MiddlewareHandler = async (c, next) => {
      await next();
      seen.push(c.res.status, c.error instanceof HttpError);
    };
    const app = new App({ name: "t" });
    app.use(watch);
    app.get("/gone", () => {
      throw new HttpError(410, "gone");
    });
    const res = await app.fetch(
      new Request("http://localhost/gone", { headers: { Accept: "application/json" } }),
    );
    expect(res.status).toBe(410);
    expect(seen).toEqual([410, true]);
  });

  it("lets a middleware answer without calling the handler", async () => {
    const app = new App({ name: "t" });
    app.use((c) => Promise.resolve(c.text("blocked", 403)));
    app.get("/x", (c) => c.text("handler"));
    const res = await app.fetch(new Request("http://localhost/x"));
    expect([res.status, await res.text()]).toEqual([403, "blocked"]);
  });

  it("refuses next() called twice", async () => {
    const app = new App({ name: "t" });
    app.use(async (_c, next) => {
      await next();
      await next();
    });
    app.get("/x", (c) => c.text("x"));
    const res = await app.fetch(
      new Request("http://localhost/x", { headers: { Accept: "application/json" } }),
    );
    expect(res.status).toBe(500);
  });
});

describe("a handler that answers with something other than a Response", () => {
  const watched = () => {
    const seen: { status: number; error: string | undefined }[] = [];
    const app = new App({ name: "t", env: "test" });
    app.use(async (c, next) => {
      await next();
      seen.push({ status: c.res.status, error: c.error?.message });
    });
    return { app, seen };
  };

  it.each([
    ["a plain object", () => ({ title: "x" }), "an object"],
    ["nothing", () => undefined, "nothing"],
    ["null", () => null, "null"],
    ["a string", () => "ok", "a string"],
  ])(
    "answers 500 when it returns %s, and middleware above sees the error",
    async (_, result, what) => {
      const { app, seen } = watched();
      app.get("/odd", (() => result()) as never);
      app.get("/fine", (c) => c.text("fine"));
      const res = await app.fetch(
        new Request("http://localhost/odd", { headers: { Accept: "application/json" } }),
      );
      expect(res.status).toBe(500);
      expect(seen).toEqual([
        { status: 500, error: `the handler of GET /odd returned ${what} instead of a Response` },
      ]);
      expect(await (await app.fetch(new Request("http://localhost/fine"))).text()).toBe("fine");
    },
  );

  it("still accepts a handler that finalized the context itself, and middleware returning nothing", async () => {
    const { app, seen } = watched();
    app.get("/set", ((c: import("hono").Context) => {
      c.res = c.text("set directly", 202);
    }) as never);
    const res = await app.fetch(new Request("http://localhost/set"));
    expect([res.status, await res.text()]).toEqual([202, "set directly"]);
    expect(seen).toEqual([{ status: 202, error: undefined }]);
  });

  it("answers 500 when a middleware returns something other than a Response or nothing", async () => {
    const app = new App({ name: "t", env: "test" });
    app.use((async (_c: unknown, next: () => Promise<void>) => {
      await next();
      return 42;
    }) as never);
    app.get("/x", (c) => c.text("x"));
    const res = await app.fetch(new Request("http://localhost/x"));
    expect(res.status).toBe(500);
  });
});

describe("phased middleware", () => {
  it("answers synchronously when every layer is phased and the handler is synchronous", () => {
    const app = new App({ name: "t" });
    app.use(passThrough);
    app.use(phased({ before: (c) => c.set("language", "de"), after: (c) => c.header("X-A", "1") }));
    app.get("/x", (c) => c.text(String(c.get("language"))));
    const res = app.fetch(new Request("http://localhost/x"));
    // A Response, not a promise of one: Hono's Node adapter then writes it at once.
    expect(res).toBeInstanceOf(Response);
  });

  it("runs before in order down the chain and after in reverse, sync or async", async () => {
    const order: string[] = [];
    const app = new App({ name: "t" });
    app.use(
      phased({
        before: async () => {
          order.push("before 1");
        },
        after: () => {
          order.push("after 1");
        },
      }),
    );
    app.use(async (_c, next) => {
      order.push("around before");
      await next();
      order.push("around after");
    });
    app.use(
      phased({
        before: () => {
          order.push("before 2");
        },
        after: async (c) => {
          order.push(`after 2 saw ${c.res.status}`);
        },
      }),
    );
    app.get("/x", (c) => {
      order.push("handler");
      return c.text("x", 201);
    });
    const res = await app.fetch(new Request("http://localhost/x"));
    expect(res.status).toBe(201);
    expect(order).toEqual([
      "before 1",
      "around before",
      "before 2",
      "handler",
      "after 2 saw 201",
      "around after",
      "after 1",
    ]);
  });

  it("runs the after-steps above an async handler in one turn, innermost first", async () => {
    const order: string[] = [];
    const app = new App({ name: "t" });
    const step = (name: string, async = false) =>
      phased({
        after: () => {
          order.push(name);
          // Queued now: it runs before the next after-step only if each step waits a turn.
          queueMicrotask(() => order.push(`turn after ${name}`));
          return async ? Promise.resolve() : undefined;
        },
      });
    app.use(step("outer"));
    app.use(step("middle, async", true));
    app.use(step("inner"));
    app.use(step("innermost"));
    app.get("/x", async (c) => {
      await null;
      return c.text("x");
    });
    await app.fetch(new Request("http://localhost/x"));
    expect(order.slice(0, 4)).toEqual([
      "innermost",
      "inner",
      "middle, async",
      "turn after innermost",
    ]);
    expect(order.indexOf("outer")).toBeGreaterThan(order.indexOf("middle, async"));
  });

  it("lets before answer (skipping the rest and its own after)", async () => {
    const seen: string[] = [];
    const app = new App({ name: "t" });
    app.use(
      phased({
        before: (c) => c.text("blocked", 403),
        after: () => {
          seen.push("after");
        },
      }),
    );
    app.get("/x", (c) => c.text("handler"));
    const res = await app.fetch(new Request("http://localhost/x"));
    expect([res.status, await res.text(), seen]).toEqual([403, "blocked", []]);
  });

  it("turns an error in before or after into the error response above it", async () => {
    const statuses: number[] = [];
    const app = new App({ name: "t" });
    app.use(async (c, next) => {
      await next();
      statuses.push(c.res.status);
    });
    app.use(
      phased({
        before: (c) => {
          if (c.req.path === "/before") throw new HttpError(409, "before");
        },
        after: async (c) => {
          if (c.req.path === "/after") throw new HttpError(410, "after");
        },
      }),
    );
    app.get("/before", (c) => c.text("no"));
    app.get("/after", (c) => c.text("no"));
    const json = { headers: { Accept: "application/json" } };
    expect((await app.fetch(new Request("http://localhost/before", json))).status).toBe(409);
    expect((await app.fetch(new Request("http://localhost/after", json))).status).toBe(410);
    expect(statuses).toEqual([409, 410]);
  });

  it("works as a plain Hono middleware too", async () => {
    const { Hono } = await import("hono");
    const hono = new Hono();
    hono.use(
      phased({ before: (c) => c.set("language", "fr"), after: (c) => c.header("X-A", "1") }),
    );
    hono.get("/", (c) => c.text(String(c.get("language"))));
    const res = await hono.request("/");
    expect([await res.text(), res.headers.get("x-a")]).toEqual(["fr", "1"]);
  });
});

describe("an async handler under phased middleware", () => {
  /** Calls `route` and counts the microtask turns until its promise has settled. */
  async function turnsOf(route: Handler, c: Context): Promise<{ turns: number; res: unknown }> {
    const { turns, value } = await microtaskTurns(() => route(c, () => Promise.resolve()));
    return { turns, res: value };
  }

  // JSON, so that the error response is made synchronously.
  const context = () =>
    new Context(new Request("http://localhost/x", { headers: { Accept: "application/json" } }));
  const watching = (seen: unknown[], name: string) =>
    phased({
      after: (c) => {
        seen.push(`${name} saw ${c.res.status}${c.error ? ` (${c.error.message})` : ""}`);
      },
    });

  it("answers one turn after the handler's promise settles, its after-steps included", async () => {
    const seen: unknown[] = [];
    const ok = new Response("x", { status: 201 });
    const route = composeRoute(
      [watching(seen, "outer"), passThrough, watching(seen, "inner")],
      () => Promise.resolve(ok),
      errorResponse,
    );
    const { turns, res } = await turnsOf(route, context());
    expect(res).toBe(ok);
    expect(seen).toEqual(["inner saw 201", "outer saw 201"]);
    // One turn for the route's continuation, one for the caller's await (a promise per step, as
    // before, took four).
    expect(turns).toBeLessThanOrEqual(2);
  });

  it("turns the handler's rejection into the error response every after-step sees", async () => {
    const seen: unknown[] = [];
    const route = composeRoute(
      [watching(seen, "outer"), watching(seen, "inner")],
      () => Promise.reject(new HttpError(410, "gone")),
      errorResponse,
    );
    const c = context();
    const { turns, res } = await turnsOf(route, c);
    expect([(res as Response).status, c.error?.message]).toEqual([410, "gone"]);
    expect(seen).toEqual(["inner saw 410 (gone)", "outer saw 410 (gone)"]);
    expect(turns).toBeLessThanOrEqual(2);
  });

  it("rejects with a non-Error the handler rejects with, running no after-step (as Hono does)", async () => {
    const seen: unknown[] = [];
    const route = composeRoute(
      [watching(seen, "outer")],
      () => Promise.reject("not an Error"),
      errorResponse,
    );
    await expect(route(context(), () => Promise.resolve())).rejects.toBe("not an Error");
    expect(seen).toEqual([]);
  });

  it("keeps an around middleware's await next() and the after-steps above and below it in order", async () => {
    const order: string[] = [];
    const route = composeRoute(
      [
        phased({ after: () => void order.push("after outer") }),
        async (_c, next) => {
          order.push("around before");
          await next();
          order.push("around after");
        },
        phased({
          after: async () => {
            await null;
            order.push("after inner, async");
          },
        }),
        phased({ after: () => void order.push("after innermost") }),
      ],
      async (c) => {
        await null;
        order.push("handler");
        return c.text("x", 202);
      },
      errorResponse,
    );
    const res = (await route(context(), () => Promise.resolve())) as Response;
    expect(res.status).toBe(202);
    expect(order).toEqual([
      "around before",
      "handler",
      "after innermost",
      "after inner, async",
      "around after",
      "after outer",
    ]);
  });
});
