import { connect } from "node:net";
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { negotiateFormat } from "../http/format.js";
import { securityHeaders } from "../middleware/security-headers/security-headers.js";
import { Resource } from "../resources/resource.js";
import type { RunningServer } from "../server/listen.js";
import { App } from "./app.js";

/** What the handler saw: the method it was routed by and the format negotiated. */
const seen = (c: Context) => c.text(`${c.req.method} ${negotiateFormat(c)}`);

class WidgetsResource extends Resource<"widget_id"> {
  override show(c: Context) {
    return seen(c);
  }
  override update(c: Context) {
    return seen(c);
  }
  override create(c: Context) {
    return seen(c);
  }
}

function shop(): App {
  const app = new App({ name: "pipeline", env: "test" });
  app.use(securityHeaders());
  app.resource("/widgets", new WidgetsResource(), { only: ["show", "update", "create"] });
  return app;
}

/** A browser's form POST to `path` (it asks for HTML). */
function formPost(path: string, body: string | FormData): Request {
  const headers: Record<string, string> = { accept: "text/html" };
  if (typeof body === "string") headers["content-type"] = "application/x-www-form-urlencoded";
  return new Request(`http://localhost${path}`, { method: "POST", headers, body });
}

describe("the steps before routing, in their order", () => {
  it("strips `.json` before reading `_method`, and the overridden request keeps that format", async () => {
    const res = await shop().fetch(formPost("/widgets/1.json", "_method=PUT&title=x"));
    expect(await res.text()).toBe("PUT json");
  });

  it("does so for a multipart form too", async () => {
    const form = new FormData();
    form.set("_method", "PUT");
    const res = await shop().fetch(formPost("/widgets/1.json", form));
    expect(await res.text()).toBe("PUT json");
  });

  it("answers a `.json` form whose `_method` no route has: the JSON 405 of that method, through the app's middleware", async () => {
    const res = await shop().fetch(formPost("/widgets/1.json", "_method=DELETE"));
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await res.json()).error).toBe("method not found: DELETE /widgets/1/");
  });

  it("answers a `.json` form with a bad `_method` before routing: a JSON 400, through the app's middleware", async () => {
    const res = await shop().fetch(formPost("/nope.json", "_method=BOGUS"));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await res.json()).error).toBe('unknown _method "BOGUS": use PUT, PATCH or DELETE');
  });
});

/** The status lines a raw request (headers only, no body sent) gets within a second. */
function statusLines(port: number, head: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve([...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1])));
    };
    const timer = setTimeout(done, 1_000);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    socket.on("end", done);
    socket.on("error", reject);
    socket.on("connect", () => socket.write(head));
  });
}

describe("the 100 Continue decision, which agrees with the steps", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await shop().listen({ port: 0, host: "127.0.0.1", handleSignals: false });
  });
  afterAll(() => server?.close());

  const expecting = (line: string, type: string) =>
    `${line} HTTP/1.1\r\nHost: a.test\r\nContent-Type: ${type}\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`;

  it("continues a JSON POST to a route's `.json` path (the extension is stripped before the match)", async () => {
    const head = expecting("POST /widgets.json", "application/json");
    expect(await statusLines(server.port, head)).toEqual([100]);
  });

  it("continues a form POST to no route (its `_method` may name one)", async () => {
    const form = "application/x-www-form-urlencoded";
    expect(await statusLines(server.port, expecting("POST /widgets/1.json", form))).toEqual([100]);
  });

  it("answers a JSON POST to no route at once, without asking for the body", async () => {
    expect(
      await statusLines(server.port, expecting("POST /widgets/1.json", "application/json")),
    ).toEqual([405]);
  });
});
