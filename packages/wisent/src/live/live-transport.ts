import type { LiveEvent } from "./live-event.js";

/** Hands an event that reached this process to its subscribers. */
export type Deliver = (stream: string, event: LiveEvent) => void;

/**
 * How broadcasts reach every process that may hold a subscriber: in memory (one process),
 * between `wisent start --workers N` workers, or across machines (PostgreSQL LISTEN/NOTIFY).
 * A transport delivers each published event once to every process, the publisher included.
 */
export interface LiveTransport {
  /** Starts receiving; every event any process publishes is handed to `deliver`. */
  start(deliver: Deliver): void | Promise<void>;
  publish(stream: string, event: LiveEvent): void | Promise<void>;
  close(): void | Promise<void>;
}

/** One process: a published event is delivered on the next microtask. */
export function memoryTransport(): LiveTransport {
  let deliver: Deliver | undefined;
  return {
    start(d) {
      deliver = d;
    },
    publish(stream, event) {
      queueMicrotask(() => deliver?.(stream, event));
    },
    close() {
      deliver = undefined;
    },
  };
}
