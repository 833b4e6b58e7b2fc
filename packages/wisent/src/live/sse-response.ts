import { formatSse, turboRefresh } from "./live-event.js";
import type { LiveHub, LiveSubscriber } from "./live-hub.js";

/** How an event stream behaves. */
export interface SseOptions {
  /** A comment line this often keeps proxies from closing an idle stream (ms, default 15 000). */
  readonly heartbeatMs?: number;
  /** Events queued for a client that does not read before it is dropped (default 64). */
  readonly maxQueued?: number;
  /**
   * The `Last-Event-ID` of a reconnecting client: the events of the stream it missed are sent
   * first when this process still has them; otherwise a Turbo refresh (its page fetches itself
   * again; an API client lists again).
   */
  readonly lastEventId?: string | undefined;
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
        send: (event, id) => write(formatSse(event, id)),
        close: () => {
          if (!open) return;
          end?.();
          controller.close();
        },
      };
      unsubscribe = hub.subscribe(stream, subscriber);
      // retry: how long EventSource waits before reconnecting. The id (with no data, so no event)
      // is where the stream starts: a client that reconnects before any event sends it back as
      // Last-Event-ID. The block sends the headers now.
      if (options.lastEventId === undefined) {
        write(`retry: 2000\nid: ${hub.position}\n\n`);
      } else {
        const missed = hub.missed(stream, options.lastEventId);
        if (missed === undefined) {
          write(`retry: 2000\nid: ${hub.position}\n\n`);
          write(formatSse(turboRefresh(undefined)));
        } else {
          write("retry: 2000\n\n");
          for (const { id, event } of missed) write(formatSse(event, id));
        }
      }
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
