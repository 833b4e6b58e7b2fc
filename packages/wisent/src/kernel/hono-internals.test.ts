import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  honoErrorHandler,
  loadNodeAdapter,
  newContext,
  nodeResponseWriter,
  watchNotFound,
} from "./hono-internals.js";

// If one of these fails after a Hono upgrade, hono-internals.ts reads something Hono moved:
// App.fetch would then answer with a stale error or not-found handler, or make a Context whose
// parameters or not-found answer are wrong. Fix that file (and the pinned `hono` range).
describe("the Hono internals App.fetch relies on", () => {
  it("Hono keeps the handler given to onError in its errorHandler field", () => {
    const hono = new Hono();
    const mine = () => new Response("mine", { status: 599 });
    hono.onError(mine);
    expect((hono as unknown as { errorHandler: unknown }).errorHandler).toBe(mine);
  });

  it("honoErrorHandler follows onError and answers what Hono's dispatch would", async () => {
    const hono = new Hono();
    const handler = honoErrorHandler(hono, () => new Response("fallback", { status: 500 }));
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

  it("newContext makes a Context that reads the route's parameters and not-found handler", async () => {
    const hono = new Hono();
    hono.get("/widgets/:id", (c) => c.text("x"));
    const matchResult = hono.router.match("GET", "/widgets/7");
    const c = newContext(new Request("http://x/widgets/7"), {
      path: "/widgets/7",
      env: { mine: true },
      matchResult,
      notFoundHandler: () => new Response("gone", { status: 404 }),
    });
    expect(c.req.param("id")).toBe("7");
    expect(c.req.path).toBe("/widgets/7");
    expect(c.env).toEqual({ mine: true });
    const notFound = await c.notFound();
    expect([notFound.status, await notFound.text()]).toEqual([404, "gone"]);
  });

  it("the installed hono is the minor version package.json pins", async () => {
    const { readFileSync } = await import("node:fs");
    const entry = fileURLToPath(import.meta.resolve("hono"));
    // hono's exports map hides its package.json: read it beside its dist/.
    const root = entry.slice(0, entry.lastIndexOf("/dist/"));
    const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
    const installed = read(`${root}/package.json`).version as string;
    const ours = read(fileURLToPath(new URL("../../package.json", import.meta.url)));
    const pinned = ours.dependencies.hono as string;
    expect(pinned).toMatch(/^~\d+\.\d+\.\d+$/);
    expect(installed.split(".").slice(0, 2)).toEqual(pinned.slice(1).split(".").slice(0, 2));
  });

  it("@hono/node-server writes the Response nodeResponseWriter hands it (it calls fetch at once)", async () => {
    await loadNodeAdapter();
    const write = nodeResponseWriter("127.0.0.1");
    const server = createServer((incoming, outgoing) => {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("streamed "));
          controller.enqueue(new TextEncoder().encode("answer"));
          controller.close();
        },
      });
      write(new Response(body, { status: 201, headers: { "x-mine": "yes" } }), incoming, outgoing);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      // A 500 here: the adapter no longer calls its fetch synchronously inside write.
      expect([res.status, res.headers.get("x-mine"), await res.text()]).toEqual([
        201,
        "yes",
        "streamed answer",
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
