import { Agent, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createGuardedServer } from "./guarded-server.js";

const BODY_LIMIT = 1024 * 1024;

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  /** The local port of the client's socket: the same twice means the connection was reused. */
  socketPort: number;
}

let server: Server | undefined;
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/**
 * A guarded server answering with `listener`; `discardMs` long enough that a drain which stalls
 * shows as the test's timeout rather than as an answer after it.
 */
async function serve(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{
  send: (method: string, path: string, body?: Buffer, type?: string) => Promise<Answer>;
}> {
  server = createGuardedServer({}, listener, {
    bodyLimit: BODY_LIMIT,
    uploadLimit: 16 * BODY_LIMIT,
    discardMs: 60_000,
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  // Node's keep-alive client, one connection: the next request reuses it when it may.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  const send = (method: string, path: string, body?: Buffer, type?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method,
          path,
          agent,
          headers: {
            ...(body ? { "content-length": body.length } : {}),
            ...(type ? { "content-type": type } : {}),
          },
        },
        (res) => {
          const socketPort = res.socket.localPort ?? 0;
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              connection: res.headers.connection,
              body: text,
              socketPort,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { send };
}

function plainAnswer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    "content-type": "text/plain",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

describe("BodyDiscardingResponse", () => {
  it("drains a body a web stream began and gave up on, then keeps the connection (no reset for the next request)", async () => {
    const { send } = await serve((req, res) => {
      if (req.method === "GET") return plainAnswer(res, 200, "next");
      // As a multipart read that fails at once does: a web stream over the body (which reads
      // until its queue is full, then pauses the request), and a 400 without reading further.
      Readable.toWeb(req);
      setImmediate(() => plainAnswer(res, 400, "malformed multipart body"));
    });
    const body = Buffer.alloc(200 * 1024, 0x61);
    for (let i = 0; i < 5; i++) {
      const refused = await send("DELETE", "/widgets/x.json", body, "application/json");
      expect(refused).toMatchObject({ status: 400, connection: "keep-alive" });
      const next = await send("GET", "/widgets.json");
      expect(next).toMatchObject({ status: 200, body: "next", socketPort: refused.socketPort });
    }
  }, 10_000);

  it("says Connection: close when the body is past what it drains, and the client still reads the answer", async () => {
    const { send } = await serve((req, res) => {
      if (req.method === "GET") return plainAnswer(res, 200, "next");
      plainAnswer(res, 400, "refused before reading");
    });
    // A multipart body may be larger than the body limit (uploads have their own): not drained.
    const body = Buffer.alloc(4 * BODY_LIMIT, 0x61);
    const refused = await send("PUT", "/widgets/x", body, "multipart/form-data; boundary=x");
    expect(refused).toMatchObject({ status: 400, connection: "close" });
    expect(refused.body).toBe("refused before reading");
    const next = await send("GET", "/widgets.json");
    expect(next).toMatchObject({ status: 200, body: "next" });
    expect(next.socketPort).not.toBe(refused.socketPort);
  }, 10_000);

  it("ends the connection, not the process, when a held status line is one Node refuses", async () => {
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (error: unknown) => errors.push(error);
    try {
      const { send } = await serve((req, res) => {
        if (req.method === "GET") return plainAnswer(res, 200, "next");
        res.writeHead(1000); // held while the body is drained; Node refuses it then
        res.end();
      });
      await expect(send("POST", "/x", Buffer.alloc(1024, 0x61), "text/plain")).rejects.toThrow();
      expect(String(errors[0])).toMatch(/status code/i);
      expect(await send("GET", "/")).toMatchObject({ status: 200, body: "next" });
    } finally {
      console.error = log;
    }
  });

  it("answers a request without a body at once, without listening to a body", async () => {
    const listening: number[] = [];
    const { send } = await serve((req, res) => {
      plainAnswer(res, 200, "ok");
      listening.push(req.listenerCount("data"));
    });
    expect(await send("GET", "/")).toMatchObject({ status: 200, connection: "keep-alive" });
    expect(listening).toEqual([0]);
  });
});
