import { describe, expect, it } from "vitest";
import { LiveHub } from "./live-hub.js";
import { sseResponse } from "./sse-response.js";

async function readUntil(reader: ReadableStreamDefaultReader<string>, text: string) {
  let seen = "";
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
  }
  return seen;
}

describe("sseResponse", () => {
  it("answers text/event-stream, sends heartbeats, and unsubscribes when cancelled", async () => {
    const hub = new LiveHub();
    const res = sseResponse(hub, "widgets", { heartbeatMs: 5 });
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-cache");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect(await readUntil(reader, "\n\n")).toContain("retry: 2000");
    expect(hub.subscriberCount).toBe(1);
    expect(await readUntil(reader, ": heartbeat")).toContain(": heartbeat\n\n");
    hub.deliver("widgets", { event: "created", data: '{"id":"1"}' });
    expect(await readUntil(reader, "created")).toContain('event: created\ndata: {"id":"1"}\n\n');
    await reader.cancel();
    expect(hub.subscriberCount).toBe(0);
    expect(hub.streamCount).toBe(0);
  });

  it("sets an event id a reconnecting EventSource sends back, and refreshes a client that reconnects", async () => {
    const hub = new LiveHub();
    const first = sseResponse(hub, "widgets")
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    expect(await readUntil(first, "\n\n")).toContain("id: open\n");
    const again = sseResponse(hub, "widgets", { reconnected: true })
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    expect(await readUntil(again, "turbo-stream")).toContain(
      'data: <turbo-stream action="refresh"></turbo-stream>',
    );
    await first.cancel();
    await again.cancel();
  });

  it("drops a client that stops reading instead of buffering without bound", async () => {
    const hub = new LiveHub();
    const res = sseResponse(hub, "widgets", { maxQueued: 3 });
    for (let i = 0; i < 10; i++) hub.deliver("widgets", { data: `event ${i}` });
    expect(hub.subscriberCount).toBe(0);
    await expect(res.body!.getReader().read()).rejects.toThrow("client too slow");
  });

  it("ends the stream when the hub closes (shutdown)", async () => {
    const hub = new LiveHub();
    const reader = sseResponse(hub, "widgets").body!.getReader();
    await reader.read();
    await hub.close();
    expect((await reader.read()).done).toBe(true);
    expect(hub.subscriberCount).toBe(0);
  });
});
