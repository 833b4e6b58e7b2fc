import { describe, expect, it } from "vitest";
import { readBodyBytes } from "./body.js";

const post = (body: BodyInit) => new Request("http://localhost/", { method: "POST", body });
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("readBodyBytes", () => {
  it("reads a body of declared length whole (the Node adapter's fast path)", async () => {
    const request = post("title=Hammer");
    let streamed = false;
    const original = request.arrayBuffer.bind(request);
    // The whole-body read, not the stream: arrayBuffer is what Hono's Node adapter serves directly.
    request.arrayBuffer = () => {
      streamed = true;
      return original();
    };
    expect(text(await readBodyBytes(request, 100, "12"))).toBe("title=Hammer");
    expect(streamed).toBe(true);
  });

  it("refuses a declared length over the limit before reading", async () => {
    await expect(readBodyBytes(post("x".repeat(10)), 5, "10")).rejects.toMatchObject({
      status: 413,
    });
  });

  it("counts while streaming when no length is declared", async () => {
    const stream = () =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("x".repeat(8)));
          controller.close();
        },
      });
    const request = (body: ReadableStream) =>
      new Request("http://localhost/", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readBodyBytes(request(stream()), 5, null)).rejects.toMatchObject({ status: 413 });
    expect(text(await readBodyBytes(request(stream()), 100, null))).toBe("xxxxxxxx");
  });

  it("answers 400 when the client goes away mid-body", async () => {
    const request = post("abc");
    request.arrayBuffer = () => Promise.reject(new Error("aborted"));
    await expect(readBodyBytes(request, 100, "3")).rejects.toMatchObject({
      status: 400,
      message: "request body could not be read: aborted",
    });
  });
});
