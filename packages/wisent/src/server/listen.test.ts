import { Agent, request } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("app.listen", () => {
  it("serves over HTTP on 127.0.0.1 and reports its URL", async () => {
    const app = new App({ name: "t" });
    app.get("/hello", (c) => c.text("hello"));
    const server = await app.listen({ port: 0, handleSignals: false });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(await get(`${server.url}/hello`)).toEqual({ status: 200, body: "hello" });
    } finally {
      await server.close();
    }
  });

  it("finishes in-flight requests on close, refuses new ones, then runs shutdown hooks", async () => {
    const app = new App({ name: "t" });
    let release!: () => void;
    const started = new Promise<void>((resolveStarted) => {
      app.get("/slow", async (c) => {
        resolveStarted();
        await new Promise<void>((r) => {
          release = r;
        });
        return c.text("done");
      });
    });
    const events: string[] = [];
    app.onShutdown(() => {
      events.push("hook");
    });
    const server = await app.listen({ port: 0, handleSignals: false });
    const inFlight = get(`${server.url}/slow`);
    await started;
    const closed = server.close().then(() => events.push("closed"));
    await expect(get(`${server.url}/slow`)).rejects.toThrow();
    release();
    expect(await inFlight).toEqual({ status: 200, body: "done" });
    await closed;
    expect(events).toEqual(["hook", "closed"]);
  });

  it("cuts off a request whose body stalls past requestTimeoutMs with 408, and keeps serving", async () => {
    const app = new App({ name: "t" });
    app.post("/echo", async (c) => c.text(await c.req.text()));
    app.get("/hello", (c) => c.text("hello"));
    const server = await app.listen({ port: 0, handleSignals: false, requestTimeoutMs: 300 });
    try {
      const socket = connect(server.port, "127.0.0.1");
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
      });
      // Headers promise 10 bytes; only one arrives. Before the fix this waited 30 s (test timeout).
      socket.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\na");
      await new Promise((resolveClosed) => socket.on("close", resolveClosed));
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(await get(`${server.url}/hello`)).toEqual({ status: 200, body: "hello" });
    } finally {
      await server.close();
    }
  }, 5_000);

  it("answers requests on busy keep-alive connections with Connection: close once closing", async () => {
    const app = new App({ name: "t" });
    let release!: () => void;
    const started = new Promise<void>((resolveStarted) => {
      app.get("/slow", async (c) => {
        resolveStarted();
        await new Promise<void>((r) => {
          release = r;
        });
        return c.text("done");
      });
    });
    const server = await app.listen({ port: 0, handleSignals: false, drainTimeoutMs: 60_000 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reply = new Promise<{ connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = request(`${server.url}/slow`, { agent }, (res) => {
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ connection: res.headers.connection, body }));
        });
        req.on("error", reject);
        req.end();
      },
    );
    await started;
    const closed = server.close();
    release();
    // Without Connection: close the kept-alive socket would hold close() for drainTimeoutMs (60 s).
    expect(await reply).toEqual({ connection: "close", body: "done" });
    await closed;
    agent.destroy();
  }, 10_000);

  it("answers a request already written on an idle keep-alive connection when close() starts", async () => {
    const app = new App({ name: "t" });
    app.get("/hello", (c) => c.text("hello"));
    const server = await app.listen({ port: 0, handleSignals: false });
    const socket = connect(server.port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    const ended = new Promise((resolveEnded) => socket.on("close", resolveEnded));
    socket.on("error", () => {});
    const request = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n";
    socket.write(request);
    while (!received.includes("hello")) await new Promise((r) => setTimeout(r, 5));
    // The connection is idle now. The next request is written, and in the same tick the server
    // starts closing: http.Server#close() alone would reset it unread (ECONNRESET).
    received = "";
    socket.write(request);
    const closed = server.close();
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received.toLowerCase()).toContain("connection: close");
    expect(received).toContain("hello");
    await closed;
  });

  it("refuses a port that is already taken in one line naming the port and its holder", async () => {
    const app = new App({ name: "t" });
    const first = await app.listen({ port: 0, handleSignals: false });
    try {
      const refused = app.listen({ port: first.port, handleSignals: false });
      await expect(refused).rejects.toThrow(
        `port ${first.port} is already in use by pid ${process.pid} (`,
      );
      await expect(refused).rejects.toMatchObject({ code: "E_PORT_IN_USE", port: first.port });
    } finally {
      await first.close();
    }
  });
});
