import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
import { readBodyBytes } from "./body.js";
import "./bind.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

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

describe("c.bind() on a GET", () => {
  // What a listener hands over when it builds the URL from the Host header as sent: a URL the
  // WHATWG parser refuses (`new URL()` throws "Invalid URL" for the host 1.2.3.256).
  const requestFor = (url: string) =>
    ({ url, method: "GET", headers: new Headers({ host: "1.2.3.256" }) }) as unknown as Request;

  it.each([
    [
      "http://1.2.3.256/search?title=Hammer&tags[]=a&tags[]=b",
      { title: "Hammer", tags: ["a", "b"] },
    ],
    ["http://1.2.3.256/search?title=a%20b#frag", { title: "a b" }],
    ["http://1.2.3.256/search", {}],
  ])("binds the query of %s without parsing its host", async (url, expected) => {
    const app = new Hono();
    app.get("*", async (c) => c.json(await c.bind()));
    const res = await app.fetch(requestFor(url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expected);
  });
});
