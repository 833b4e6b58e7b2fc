import { formatSse, turboRefresh } from "./live-event.js";
import type { LiveHub, LiveSubscriber } from "./live-hub.js";

/** How an event stream behaves. */
export interface SseOptions {
  /** A comment line this often keeps proxies from closing an idle stream (ms, default 15 000). */
  readonly heartbeatMs?: number;
  /** Events queued for a client that does not read before it is dropped (default 64). */
  readonly maxQueued?: number;
  /**
   * The client is reconnecting (it sent `Last-Event-ID`): what changed while it was away cannot
   * be replayed, so it gets a Turbo refresh at once (its page fetches itself again).
   */
  readonly reconnected?: boolean;
}

const encoder = new TextEncoder();

/**
 * A `text/event-stream` response subscribed to `stream` on `hub` until the client goes away
 * (the Node writer cancels the body), the server shuts down (the hub closes it), or the client
 * reads too slowly (dropped: its EventSource reconnects and refreshes).
 */
export function sseResponse(hub: LiveHub, stream: string, options: SseOptions = {}): Response {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxQueued = options.maxQueued ?? 64;
  let end: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      let unsubscribe: (() => void) | undefined;
      end = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        unsubscribe?.();
      };
      const write = (text: string) => {
        if (!open) return;
        // A client that stopped reading: drop it rather than buffer without bound.
        if ((controller.desiredSize ?? 0) < -maxQueued) {
          end?.();
          // Ends that client's stream: nothing of the app's code sees it.
          controller.error(new Error("live: client too slow, dropped"));
          return;
        }
        controller.enqueue(encoder.encode(text));
      };
      const subscriber: LiveSubscriber = {
        send: (event) => write(formatSse(event)),
        close: () => {
          if (!open) return;
          end?.();
          controller.close();
        },
      };
      unsubscribe = hub.subscribe(stream, subscriber);
      // retry: how long EventSource waits before reconnecting. The id (with no data, so no event)
      // makes a reconnecting EventSource send Last-Event-ID; the block sends the headers now.
      write("retry: 2000\nid: open\n\n");
      if (options.reconnected) write(formatSse(turboRefresh(undefined)));
      heartbeat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
      heartbeat.unref?.();
    },
    cancel() {
      end?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
