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

  it("numbers its events, so a reconnecting EventSource sends back the last it read", async () => {
    const hub = new LiveHub();
    const reader = sseResponse(hub, "widgets")
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    const opening = await readUntil(reader, "\n\n");
    const start = /^id: ([0-9a-f]{8})-(\d+)$/m.exec(opening);
    expect(start).not.toBeNull();
    hub.deliver("widgets", { data: "one" });
    expect(await readUntil(reader, "one")).toContain(
      `id: ${start![1]}-${Number(start![2]) + 1}\ndata: one\n\n`,
    );
    await reader.cancel();
  });

  it("replays the events of its stream a reconnecting client missed (Last-Event-ID)", async () => {
    const hub = new LiveHub();
    const first = sseResponse(hub, "widgets")
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    const opened = /^id: (\S+)$/m.exec(await readUntil(first, "\n\n"))![1]!;
    hub.deliver("widgets", { data: "seen" });
    const seen = /^id: (\S+)$/m.exec(await readUntil(first, "seen"))![1]!;
    await first.cancel();
    // Away: two changes of its stream, one of another.
    hub.deliver("widgets", { data: "missed 1" });
    hub.deliver("gadgets", { data: "not its stream" });
    hub.deliver("widgets", { event: "created", data: '{"id":"7"}' });
    const again = sseResponse(hub, "widgets", { lastEventId: seen })
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    const replayed = await readUntil(again, '{"id":"7"}');
    expect(replayed).toMatch(
      /id: \S+\ndata: missed 1\n\nid: \S+\nevent: created\ndata: \{"id":"7"\}\n\n$/,
    );
    expect(replayed).not.toContain("not its stream");
    expect(replayed).not.toContain("refresh");
    await again.cancel();
    // From where it opened: the one it read too.
    const fromOpening = sseResponse(hub, "widgets", { lastEventId: opened })
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    expect(await readUntil(fromOpening, '{"id":"7"}')).toContain("data: seen\n");
    await fromOpening.cancel();
  });

  it("refreshes a reconnecting client whose missed events this process no longer has", async () => {
    const hub = new LiveHub({ replayEvents: 2 });
    const first = sseResponse(hub, "widgets")
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    const opened = /^id: (\S+)$/m.exec(await readUntil(first, "\n\n"))![1]!;
    await first.cancel();
    for (const data of ["a", "b", "c"]) hub.deliver("widgets", { data });
    for (const lastEventId of [opened, "0badbeef-1", "open"]) {
      const again = sseResponse(hub, "widgets", { lastEventId })
        .body!.pipeThrough(new TextDecoderStream())
        .getReader();
      const text = await readUntil(again, "turbo-stream");
      expect(text).toContain('data: <turbo-stream action="refresh"></turbo-stream>');
      expect(text).not.toContain("data: c");
      await again.cancel();
    }
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
