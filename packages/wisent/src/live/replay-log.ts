import { randomBytes } from "node:crypto";
import type { LiveEvent } from "./live-event.js";

/** An event this process delivered, with its place in the process's sequence. */
interface Logged {
  readonly stream: string;
  readonly seq: number;
  readonly event: LiveEvent;
}

/** An event and the id it is sent with. */
export interface NumberedEvent {
  readonly id: string;
  readonly event: LiveEvent;
}

/**
 * The last events this process delivered (every stream together, at most `max`), so a client
 * that reconnects with `Last-Event-ID` gets the ones it missed. An event's id is the process's
 * random epoch and its sequence number (`3f9a0c1e-42`): an id from another process (or from
 * before a restart) is not this log's, and a client whose missed events were already forgotten
 * cannot be given them; both get `undefined` (the caller sends a refresh instead).
 */
export class ReplayLog {
  readonly #epoch = randomBytes(4).toString("hex");
  readonly #entries: Logged[] = [];
  #seq = 0;
  /** The highest sequence number forgotten (an event after it is still in the log). */
  #forgotten = 0;

  constructor(private readonly max = 500) {}

  /** The id of the latest event: where a stream opened now starts. */
  get position(): string {
    return `${this.#epoch}-${this.#seq}`;
  }

  /** Logs an event delivered to `stream`: its id. */
  add(stream: string, event: LiveEvent): string {
    const seq = ++this.#seq;
    this.#entries.push({ stream, seq, event });
    if (this.#entries.length > this.max) this.#forgotten = this.#entries.shift()!.seq;
    return `${this.#epoch}-${seq}`;
  }

  /**
   * The events of `stream` after the one `lastEventId` names, oldest first (none when nothing
   * was missed); undefined when this log cannot tell: the id is not this process's, or events
   * after it were forgotten.
   */
  since(stream: string, lastEventId: string): NumberedEvent[] | undefined {
    const dash = lastEventId.lastIndexOf("-");
    if (lastEventId.slice(0, dash) !== this.#epoch) return undefined;
    const last = Number(lastEventId.slice(dash + 1));
    if (!Number.isSafeInteger(last) || last > this.#seq || last < this.#forgotten) return undefined;
    const missed: NumberedEvent[] = [];
    for (const entry of this.#entries) {
      if (entry.seq > last && entry.stream === stream) {
        missed.push({ id: `${this.#epoch}-${entry.seq}`, event: entry.event });
      }
    }
    return missed;
  }
}
