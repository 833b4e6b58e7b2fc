import type pgModule from "pg";
import { requireDependency } from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";
import type { LiveEvent } from "./live-event.js";
import type { Deliver, LiveTransport } from "./live-transport.js";

/** NOTIFY refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

/** One event as a notification carries it: its stream and the event. */
interface Notified {
  readonly s: string;
  readonly e: LiveEvent;
}

/** An event waiting for the next NOTIFY, and its publisher's promise. */
interface Waiting {
  readonly payload: string;
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The channel of an app's broadcasts: one per app name, so apps sharing a database keep apart. */
export function liveChannel(appName: string): string {
  return `wisent_live_${appName.replace(/[^\w]/g, "_")}`.slice(0, 63);
}

/**
 * Broadcasts over PostgreSQL `LISTEN/NOTIFY` (no new service: the app's own database): every
 * process listens on the app's channel with one connection of its own and publishes with
 * `pg_notify` on it; PostgreSQL delivers each notification to every listener, the publisher
 * included. A lost connection is made again (and listens again) after a second.
 *
 * @param url - the PostgreSQL URL (`LIVE_URL`)
 * @param channel - the channel (see {@link liveChannel})
 */
export function postgresTransport(url: string, channel: string): LiveTransport {
  const { Client } = requireDependency<typeof pgModule>("pg");
  let client: pgModule.Client | undefined;
  let connecting: Promise<pgModule.Client> | undefined;
  let closed = false;
  let deliver: Deliver | undefined;

  const connect = (): Promise<pgModule.Client> => {
    connecting ??= (async () => {
      const made = new Client({ connectionString: url });
      made.on("notification", (message) => {
        if (message.channel !== channel || !message.payload) return;
        try {
          const sent = JSON.parse(message.payload) as Notified | Notified[];
          for (const { s, e } of Array.isArray(sent) ? sent : [sent]) deliver?.(s, e);
        } catch (error) {
          console.error("live: unreadable notification:", error);
        }
      });
      made.on("error", (error) => {
        console.error("live: PostgreSQL connection lost:", error.message);
      });
      made.on("end", () => {
        if (client === made) client = undefined;
        connecting = undefined;
        if (!closed) setTimeout(() => void connect().catch(() => {}), 1_000).unref();
      });
      await made.connect();
      await made.query(`LISTEN "${channel}"`);
      client = made;
      return made;
    })().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };

  // Events published while a NOTIFY is on its way wait and leave together in the next one (a
  // JSON array, within NOTIFY's limit): under concurrent writes a create costs a fraction of a
  // query (bench/live/run.mjs, the cost of a live create on PostgreSQL). One waiting alone is
  // sent as before, so processes of the previous release read it during a rolling deploy.
  let waiting: Waiting[] = [];
  let sending = false;
  const send = async () => {
    sending = true;
    while (waiting.length > 0) {
      // The first alone always fits (publish refuses larger events); others join while the
      // array (`[`, the payloads with a comma between, `]`) stays within the limit.
      const batch = [waiting.shift()!];
      let bytes = batch[0]!.bytes + 2;
      while (waiting.length > 0 && bytes + waiting[0]!.bytes + 1 <= MAX_PAYLOAD_BYTES) {
        const next = waiting.shift()!;
        bytes += next.bytes + 1;
        batch.push(next);
      }
      const payload =
        batch.length === 1 ? batch[0]!.payload : `[${batch.map((w) => w.payload).join(",")}]`;
      try {
        const connected = client ?? (await connect());
        await connected.query("select pg_notify($1, $2)", [channel, payload]);
        for (const one of batch) one.resolve();
      } catch (error) {
        for (const one of batch) one.reject(error);
      }
    }
    sending = false;
  };

  return {
    async start(d) {
      deliver = d;
      await connect();
    },
    publish(stream, event) {
      const payload = JSON.stringify({ s: stream, e: event });
      const bytes = Buffer.byteLength(payload);
      if (bytes > MAX_PAYLOAD_BYTES) {
        return Promise.reject(
          new WisentError(
            "E_LIVE_EVENT_TOO_LARGE",
            `live: an event of ${bytes} bytes is too large for NOTIFY`,
          ),
        );
      }
      return new Promise<void>((resolve, reject) => {
        waiting.push({ payload, bytes, resolve, reject });
        if (!sending) void send();
      });
    },
    async close() {
      closed = true;
      deliver = undefined;
      // Nothing more is sent: what waited is let go (the hub publishes nothing once closed).
      for (const one of waiting) one.resolve();
      waiting = [];
      const open = client ?? (await connecting?.catch(() => undefined));
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
