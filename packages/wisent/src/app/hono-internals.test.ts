import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { honoErrorHandler, watchNotFound } from "./hono-internals.js";

// If one of these fails after a Hono upgrade, hono-internals.ts reads something Hono moved:
// App.fetch would then answer with a stale error or not-found handler. Fix that file.
describe("the Hono internals App.fetch relies on", () => {
  it("Hono keeps the handler given to onError in its errorHandler field", () => {
    const hono = new Hono();
    const mine = () => new Response("mine", { status: 599 });
    hono.onError(mine);
    expect((hono as unknown as { errorHandler: unknown }).errorHandler).toBe(mine);
  });

  it("honoErrorHandler follows onError and answers what Hono's dispatch would", async () => {
    const hono = new Hono();
    const handler = honoErrorHandler(hono);
    hono.onError((err) => new Response(`handled ${err.message}`, { status: 599 }));
    hono.get("/boom", () => {
      throw new Error("boom");
    });
    const viaHono = await hono.fetch(new Request("http://x/boom"));
    const viaOurs = await handler(new Error("boom"), {} as never);
    expect([viaOurs.status, await viaOurs.text()]).toEqual([viaHono.status, await viaHono.text()]);
  });

  it("watchNotFound sees every not-found handler and Hono still uses it", async () => {
    const hono = new Hono();
    const seen: unknown[] = [];
    watchNotFound(hono, (h) => seen.push(h));
    const mine = () => new Response("nothing here", { status: 404 });
    hono.notFound(mine);
    expect(seen).toEqual([mine]);
    expect(await (await hono.fetch(new Request("http://x/none"))).text()).toBe("nothing here");
  });
});
