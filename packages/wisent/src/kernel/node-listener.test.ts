import { ServerResponse } from "node:http";
import { connect } from "node:net";
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Resource } from "../resources/resource.js";
import "../http/respond.js";
import { App } from "../app/app.js";
import { securityHeaders } from "../middleware/security-headers/security-headers.js";
import { session } from "../middleware/session/session.js";
import { unsealSession } from "../middleware/session/session-codec.js";
import { resolveSessionPasswords } from "../middleware/session/session-secrets.js";
import type { RunningServer } from "../server/listen.js";
import { realRequestBuilt } from "./node-request.js";
import { hasAllResponseHeaders } from "./response-headers.js";

/** Sends raw bytes on a fresh connection and returns everything read until the server closes or `until` matches. */
function exchange(
  port: number,
  parts: readonly string[],
  options: { until?: RegExp; gapMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, 3_000);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (options.until?.test(text)) done();
    });
    socket.on("end", done);
    socket.on("error", reject);
    socket.on("connect", async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, options.gapMs ?? 100));
        if (!socket.destroyed) socket.write(part);
      }
    });
  });
}

/** The header lines of the first answer in `raw` (lower-case names), and its body. */
function parse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: raw.slice(end + 4) };
}

/** What `run` resolves to, and how often it made Node's ServerResponse `writeHead` and `setHeader`. */
async function countingWrites<T>(
  run: () => Promise<T>,
): Promise<{ result: T; calls: { writeHead: number; setHeader: number } }> {
  const calls = { writeHead: 0, setHeader: 0 };
  const proto = ServerResponse.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const { writeHead, setHeader } = proto;
  proto.writeHead = function (this: unknown, ...args: unknown[]) {
    calls.writeHead++;
    return writeHead!.apply(this, args);
  };
  proto.setHeader = function (this: unknown, ...args: unknown[]) {
    calls.setHeader++;
    return setHeader!.apply(this, args);
  };
  try {
    return { result: await run(), calls };
  } finally {
    proto.writeHead = writeHead!;
    proto.setHeader = setHeader!;
  }
}

const seen: { built: boolean; method: string; url: string }[] = [];

class WidgetsResource extends Resource<"widget_id"> {
  override show(c: Context) {
    // What a handler reads without asking for the body: no real Request is built for it.
    c.req.param("widget_id");
    void c.req.path;
    seen.push({ built: realRequestBuilt(c.req.raw), method: c.req.method, url: c.req.url });
    return c.respond(200, { json: { id: c.req.param("widget_id"), title: "Hammer" } });
  }
  override async create(c: Context) {
    const body = (await c.req.json()) as { title: string };
    seen.push({ built: realRequestBuilt(c.req.raw), method: c.req.method, url: c.req.url });
    return c.respond(201, { json: { title: body.title } });
  }
}

describe("Wisent's Node listener", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = new App({ name: "listener", api: true });
    app.use(securityHeaders());
    app.resource("/widgets", new WidgetsResource(), { only: ["show", "create"] });
    server = await app.listen({ port: 0, handleSignals: false });
  });
  afterAll(() => server?.close());

  it("hands handlers a Request whose real Fetch Request is never built for a show or a JSON body", async () => {
    seen.length = 0;
    const show = await fetch(`${server.url}/widgets/7.json?x=1`);
    expect(await show.json()).toEqual({ id: "7", title: "Hammer" });
    const create = await fetch(`${server.url}/widgets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Tongs" }),
    });
    expect([create.status, await create.json()]).toEqual([201, { title: "Tongs" }]);
    expect(seen).toEqual([
      { built: false, method: "GET", url: `${server.url}/widgets/7?x=1` },
      { built: false, method: "POST", url: `${server.url}/widgets` },
    ]);
  });

  it("writes c.respond's answer with one writeHead and no setHeader, carrying only JSON's headers", async () => {
    const { result: raw, calls } = await countingWrites(() =>
      exchange(server.port, ["GET /widgets/7 HTTP/1.1\r\nHost: a.test\r\n\r\n"], {
        until: /\}$/,
      }),
    );
    expect(calls).toEqual({ writeHead: 1, setHeader: 0 });
    const { status, headers, body } = parse(raw);
    expect(status).toBe(200);
    expect(body).toBe('{"id":"7","title":"Hammer"}');
    expect(Object.keys(headers).sort()).toEqual([
      "cache-control",
      "connection",
      "content-length",
      "content-security-policy",
      "content-type",
      "cross-origin-resource-policy",
      "date",
      "etag",
      "keep-alive",
      "vary",
      "x-content-type-options",
      "x-frame-options",
    ]);
    expect(headers["content-length"]).toBe(String(body.length));
  });

  it("answers HEAD with the Content-Length GET sends, and no body", async () => {
    const get = parse(
      await exchange(server.port, ["GET /widgets/7 HTTP/1.1\r\nHost: a.test\r\n\r\n"], {
        until: /\}$/,
      }),
    );
    const head = await exchange(server.port, [
      "HEAD /widgets/7 HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n",
    ]);
    const parsed = parse(head);
    expect(parsed.status).toBe(200);
    expect(parsed.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(parsed.headers.etag).toBe(get.headers.etag);
    expect(parsed.body).toBe("");
  });

  it("sends 100 Continue when the request will be read", async () => {
    const body = JSON.stringify({ title: "Saw" });
    const raw = await exchange(
      server.port,
      [
        `POST /widgets HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
        body,
      ],
      { until: /\}$/, gapMs: 300 },
    );
    expect(raw.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 ")).toBe(true);
    expect(raw.endsWith('{"title":"Saw"}')).toBe(true);
  });

  it.each([
    ["no route for the path (404)", "POST /gadgets"],
    ["the path under another method (405)", "PUT /widgets/7"],
  ])("answers %s without 100 Continue and closes", async (_name, line) => {
    const raw = await exchange(
      server.port,
      [
        `${line} HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`,
      ],
      { until: /\r\n\r\n[\s\S]*\}/ },
    );
    expect(raw).not.toContain("100 Continue");
    const { status, headers } = parse(raw);
    expect(status).toBe(line.startsWith("POST") ? 404 : 405);
    expect(headers.connection).toBe("close");
  });
});

describe("a first visit's session cookie", () => {
  const afterSession: boolean[] = [];
  const lateOnPlain: boolean[] = [];
  const SECRET = "a-listener-test-secret-of-32-characters-or-more";
  let server: RunningServer;
  beforeAll(async () => {
    const app = new App({ name: "shop" });
    app.use(securityHeaders());
    // An after-step above the session's that sets a header through Hono once the cookie is on.
    app.use(async (c, next) => {
      await next();
      // The answer the session's cookie went onto is still the one c.respond made.
      afterSession.push(hasAllResponseHeaders(c));
      if (!c.req.query("late")) return;
      c.header("X-Late", "1");
      // Still the answer c.respond made (Hono's own c.header would have copied it).
      lateOnPlain.push(hasAllResponseHeaders(c));
    });
    app.use(session({ secret: SECRET }));
    app.get("/visit", (c) => {
      c.get("session").set("visits", 1);
      return c.respond(200, { html: () => "welcome" });
    });
    server = await app.listen({ port: 0, handleSignals: false });
  });
  afterAll(() => server?.close());

  it("joins c.respond's plain answer: one writeHead, no copy of the Response, no-store", async () => {
    const { result: raw, calls } = await countingWrites(() =>
      exchange(server.port, ["GET /visit HTTP/1.1\r\nHost: a.test\r\nAccept: text/html\r\n\r\n"], {
        until: /welcome$/,
      }),
    );
    // Set on the made Response through Hono, the cookie cost a copy through a body stream, which
    // @hono/node-server's writer then wrote with a setHeader per field.
    expect(calls).toEqual({ writeHead: 1, setHeader: 0 });
    expect(afterSession).toEqual([true]);
    const { status, headers, body } = parse(raw);
    expect(status).toBe(200);
    expect(body).toBe("welcome");
    expect(headers["cache-control"]).toBe("no-store");
    const cookie = headers["set-cookie"]!;
    expect(cookie).toMatch(/^_shop_session=Fe26\.2\*[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const sealed = cookie.slice("_shop_session=".length, cookie.indexOf(";"));
    const passwords = resolveSessionPasswords({ secret: SECRET });
    expect(await unsealSession(decodeURIComponent(sealed), passwords)).toMatchObject({ visits: 1 });
  });

  it("keeps the cookie and no-store when a later step sets a header through Hono, still plain", async () => {
    const { result: raw, calls } = await countingWrites(() =>
      exchange(
        server.port,
        ["GET /visit?late=1 HTTP/1.1\r\nHost: a.test\r\nAccept: text/html\r\n\r\n"],
        { until: /welcome$/ },
      ),
    );
    // The late header joined the plain fields too: no copy of the Response, one writeHead.
    expect(calls).toEqual({ writeHead: 1, setHeader: 0 });
    expect(lateOnPlain).toEqual([true]);
    const { status, headers } = parse(raw);
    expect(status).toBe(200);
    expect(headers["x-late"]).toBe("1");
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["set-cookie"]).toMatch(/^_shop_session=Fe26\.2\*/);
    // One Set-Cookie line, not the cookie twice.
    expect(raw.match(/^set-cookie:/gim)).toHaveLength(1);
  });
});
