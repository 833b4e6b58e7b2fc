import type { Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createGuardedServer } from "./guarded-server.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Sends `request` raw and resolves with everything the server wrote before it closed. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
    socket.end(request);
  });
}

describe("answerClientError", () => {
  const tooLarge = (method: string) =>
    `${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"a".repeat(32 * 1024)}\r\n\r\n`;

  it("answers headers over the limit 431 with a body, and to HEAD without one", async () => {
    server = createGuardedServer({}, (_req, res) => res.end("never"), {
      bodyLimit: 1024,
      discardMs: 1_000,
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };

    const get = await exchange(port, tooLarge("GET"));
    expect(get).toMatch(/^HTTP\/1\.1 431 /);
    expect(get).toMatch(/\r\n\r\nthe request headers are too large\n$/);

    // A HEAD answer has no body: one would be read as the start of the next answer.
    const head = await exchange(port, tooLarge("HEAD"));
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/Content-Length: \d+\r\n/);
    expect(head.endsWith("\r\n\r\n")).toBe(true);
  });
});
