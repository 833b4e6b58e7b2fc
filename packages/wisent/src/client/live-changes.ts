import type { LiveChange } from "./types.js";

const CHANGES = new Set(["created", "updated", "destroyed"]);

/**
 * The changes in a live resource's event stream: its `created`, `updated` and `destroyed`
 * events (the Turbo refreshes and heartbeats for pages are skipped). Stopping the loop cancels
 * the stream.
 */
export async function* liveChanges(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<LiveChange<unknown>> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, "\n");
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        let event = "message";
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (!CHANGES.has(event) || data.length === 0) continue;
        const json = JSON.parse(data.join("\n")) as { id: string };
        yield event === "destroyed"
          ? { type: "destroyed", id: json.id }
          : { type: event as "created" | "updated", record: json };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
