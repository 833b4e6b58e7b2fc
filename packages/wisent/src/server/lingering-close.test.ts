import type { Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createGuardedServer } from "./guarded-server.js";
import { LINGER_MS } from "./lingering-close.js";

const BODY_LIMIT = 64 * 1024;

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/**
 * Declares a body over the limit and sends it in 16 KiB pieces, one every `everyMs`, reading
 * what comes back; resolves with the answer and the error of the client's writes, if any.
 */
function sendOverTheLimit(port: number, pieces: number, everyMs: number, method = "POST") {
  return new Promise<{ answer: string; error: string | undefined }>((resolve) => {
    // Half-open allowed: like an HTTP client still uploading, it keeps writing after the
    // server has half-closed its side.
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let answer = "";
    let error: string | undefined;
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    socket.on("close", () => resolve({ answer, error }));
    socket.write(
      `${method} /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n` +
        `Content-Length: ${pieces * 16 * 1024}\r\n\r\n`,
    );
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(Buffer.alloc(16 * 1024, 0x61));
      if (++sent === pieces) {
        clearInterval(timer);
        socket.end();
      }
    }, everyMs);
  });
}

describe("lingeringClose", () => {
  it("keeps reading a body still arriving after the answer, past LINGER_MS: the client gets no reset", async () => {
    server = createGuardedServer({}, (_req, res) => res.end("read"), {
      bodyLimit: BODY_LIMIT,
      discardMs: 10_000,
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    // A client that keeps sending, a piece every LINGER_MS / 4, for twice LINGER_MS in all.
    const pieces = 8;
    const { answer, error } = await sendOverTheLimit(port, pieces, LINGER_MS / 4);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(error).toBeUndefined();
  }, 20_000);

  it("reads the rest of a request Node's parser refused (an unknown method) instead of resetting it", async () => {
    server = createGuardedServer({}, (_req, res) => res.end("read"), {
      bodyLimit: BODY_LIMIT,
      discardMs: 10_000,
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    // The parser reports every later piece again; answering that report destroyed the socket.
    const { answer, error } = await sendOverTheLimit(port, 6, 20, "FOO");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("method is not one this server knows");
    expect(error).toBeUndefined();
  }, 20_000);
});
