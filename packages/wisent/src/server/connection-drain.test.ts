import { createServer } from "node:http";
import { connect, Server } from "node:net";
import { describe, expect, it } from "vitest";
import { trackConnections } from "./connection-drain.js";

describe("trackConnections().drain()", () => {
  it("closes a kept-alive connection that stays idle, and answers one in use with Connection: close", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    const connections = trackConnections(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const open = (): Promise<{
      text: () => string;
      closed: Promise<void>;
      write(s: string): void;
    }> =>
      new Promise((resolve) => {
        const socket = connect(port, "127.0.0.1", () => resolve(handle));
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString("latin1");
        });
        const closed = new Promise<void>((r) => socket.on("close", () => r()));
        const handle = { text: () => text, closed, write: (s: string) => socket.write(s) };
      });
    const request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    const idle = await open();
    const busy = await open();
    idle.write(request);
    busy.write(request);
    while (!idle.text().endsWith("ok") || !busy.text().endsWith("ok")) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const stop = connections.drain();
    // Stop accepting the way listen() does: http.Server#close() would reset `busy` right here.
    Server.prototype.close.call(server);
    busy.write(request); // still within the grace period: read and answered, then closed
    await Promise.all([idle.closed, busy.closed]);
    stop();
    expect(idle.text().match(/HTTP\/1\.1 200/g)).toHaveLength(1);
    const answers = busy.text().split("HTTP/1.1 ").slice(1);
    expect(answers).toHaveLength(2);
    expect(answers[1]!.toLowerCase()).toContain("connection: close");
  });
});
