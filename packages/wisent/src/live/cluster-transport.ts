import type { Worker } from "node:cluster";
import type { LiveEvent } from "./live-event.js";
import type { LiveTransport } from "./live-transport.js";

/** The key of a broadcast among the messages of a cluster's processes. */
const KEY = "wisentLive";
interface ClusterMessage {
  readonly [KEY]: { readonly s: string; readonly e: LiveEvent };
}

function isLiveMessage(message: unknown): message is ClusterMessage {
  return typeof message === "object" && message !== null && KEY in message;
}

/**
 * Between the workers of one `wisent start --workers N`: a worker sends its broadcast to the
 * primary process, which hands it to every worker (the sender too; see
 * {@link relayLiveBroadcasts}).
 */
export function clusterTransport(): LiveTransport {
  let listener: ((message: unknown) => void) | undefined;
  return {
    start(deliver) {
      listener = (message) => {
        if (isLiveMessage(message)) deliver(message[KEY].s, message[KEY].e);
      };
      process.on("message", listener);
    },
    publish(stream, event) {
      process.send?.({ [KEY]: { s: stream, e: event } } satisfies ClusterMessage);
    },
    close() {
      if (listener) process.off("message", listener);
      listener = undefined;
    },
  };
}

/**
 * In the primary process of `wisent start --workers N`: hands each worker's broadcast to every
 * worker.
 * @param workers - the cluster's live workers, read at each message
 * @returns what to call with a worker's message
 */
export function relayLiveBroadcasts(workers: () => readonly Worker[]): (message: unknown) => void {
  return (message) => {
    if (!isLiveMessage(message)) return;
    for (const worker of workers()) if (worker.isConnected()) worker.send(message);
  };
}
