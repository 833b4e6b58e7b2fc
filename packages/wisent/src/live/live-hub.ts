import { noteBroadcast } from "./broadcast-log.js";
import { type LiveEvent, turboRefresh } from "./live-event.js";
import { type LiveTransport, memoryTransport } from "./live-transport.js";
import { type NumberedEvent, ReplayLog } from "./replay-log.js";

/** A subscriber: one open event stream. */
export interface LiveSubscriber {
  /** Sends `event`; `id` is its place in this process's events (see {@link LiveHub.missed}). */
  send(event: LiveEvent, id?: string): void;
  /** Ends the stream (shutdown): the client reconnects elsewhere. */
  close(): void;
}

/** What a hub is made with. */
export interface LiveHubOptions {
  readonly transport?: LiveTransport;
  /** Refreshes of one stream within this many ms are sent as one (default 100). */
  readonly debounceMs?: number;
  /** The events kept for clients that reconnect, every stream together (default 500). */
  readonly replayEvents?: number;
}

/** A refresh waiting for its debounce: the request id kept only while every change shares it. */
interface PendingRefresh {
  requestId: string | undefined;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * The live streams of one app in this process: who subscribes to which stream, and broadcasts
 * through the app's transport to every process (this one included). Refreshes are debounced per
 * stream: a burst of changes becomes one refresh.
 */
export class LiveHub {
  readonly #streams = new Map<string, Set<LiveSubscriber>>();
  readonly #pending = new Map<string, PendingRefresh>();
  readonly #transport: LiveTransport;
  readonly #debounceMs: number;
  readonly #log: ReplayLog;
  #started: Promise<void> | undefined;
  #closed = false;

  constructor(options: LiveHubOptions = {}) {
    this.#transport = options.transport ?? memoryTransport();
    this.#debounceMs = options.debounceMs ?? 100;
    this.#log = new ReplayLog(options.replayEvents);
  }

  /** The id of the latest event this process delivered: where a stream opened now starts. */
  get position(): string {
    return this.#log.position;
  }

  /**
   * The events of `stream` a client missed since the event `lastEventId` (what its
   * EventSource sent back on reconnecting), oldest first; undefined when this process cannot
   * tell (another process's id, or events after it already forgotten).
   */
  missed(stream: string, lastEventId: string): NumberedEvent[] | undefined {
    return this.#log.since(stream, lastEventId);
  }

  /** Starts the transport (once); broadcasts wait for it. */
  start(): Promise<void> {
    this.#started ??= Promise.resolve(
      this.#transport.start((stream, event) => this.deliver(stream, event)),
    );
    return this.#started;
  }

  /** How many streams are open in this process (all streams together). */
  get subscriberCount(): number {
    let count = 0;
    for (const set of this.#streams.values()) count += set.size;
    return count;
  }

  /** How many stream names have a subscriber here (a name is dropped with its last one). */
  get streamCount(): number {
    return this.#streams.size;
  }

  /**
   * Adds a subscriber to `stream`.
   * @returns how to remove it (idempotent)
   */
  subscribe(stream: string, subscriber: LiveSubscriber): () => void {
    let set = this.#streams.get(stream);
    if (!set) {
      set = new Set();
      this.#streams.set(stream, set);
    }
    set.add(subscriber);
    return () => {
      const current = this.#streams.get(stream);
      if (!current?.delete(subscriber)) return;
      if (current.size === 0) this.#streams.delete(stream);
    };
  }

  /** Sends `event` to every subscriber of `stream` in every process. */
  async publish(stream: string, event: LiveEvent): Promise<void> {
    if (this.#closed) return;
    // A refresh is noted when asked for (see refresh); a Turbo Stream action by its name.
    const action = event.event ?? /^<turbo-stream action="(\w+)"/.exec(event.data)?.[1];
    if (action && action !== "refresh") noteBroadcast({ stream, action, data: event.data });
    await this.start();
    await this.#transport.publish(stream, event);
  }

  /**
   * A Turbo `refresh` to `stream`, debounced: changes within the debounce window send one
   * refresh, which carries the changing request's id only when they all came from one request.
   */
  refresh(stream: string, requestId: string | undefined): void {
    noteBroadcast({ stream, action: "refresh" });
    const pending = this.#pending.get(stream);
    if (pending) {
      if (pending.requestId !== requestId) pending.requestId = undefined;
      return;
    }
    const timer = setTimeout(() => {
      this.flush(stream).catch((error: unknown) => {
        console.error(`live: could not broadcast to ${stream}:`, error);
      });
    }, this.#debounceMs);
    timer.unref?.();
    this.#pending.set(stream, { requestId, timer });
  }

  /**
   * Sends the refresh of `stream` waiting for its debounce now, if there is one. Before sending a
   * reader of a destroyed record to the list: a refresh for that change arriving after the list
   * opened would render the list again and wipe the notice the reader was shown.
   */
  async flush(stream: string): Promise<void> {
    const pending = this.#pending.get(stream);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(stream);
    await this.publish(stream, turboRefresh(pending.requestId));
  }

  /**
   * Hands an event that reached this process to the stream's subscribers here, and keeps it
   * for the clients of the stream that reconnect (their stream may have been between them).
   */
  deliver(stream: string, event: LiveEvent): void {
    const id = this.#log.add(stream, event);
    const set = this.#streams.get(stream);
    if (!set) return;
    for (const subscriber of [...set]) subscriber.send(event, id);
  }

  /** Ends every stream (the server is shutting down) and stops the transport. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#pending.values()) clearTimeout(pending.timer);
    this.#pending.clear();
    for (const set of [...this.#streams.values()]) {
      for (const subscriber of [...set]) subscriber.close();
    }
    this.#streams.clear();
    await this.#transport.close();
  }
}
