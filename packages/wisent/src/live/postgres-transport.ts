import type pgModule from "pg";
import { requireDependency } from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";
import type { LiveEvent } from "./live-event.js";
import type { Deliver, LiveTransport } from "./live-transport.js";

/** NOTIFY refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

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
          const { s, e } = JSON.parse(message.payload) as { s: string; e: LiveEvent };
          deliver?.(s, e);
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

  return {
    async start(d) {
      deliver = d;
      await connect();
    },
    async publish(stream, event) {
      const payload = JSON.stringify({ s: stream, e: event });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        throw new WisentError(
          "E_LIVE_EVENT_TOO_LARGE",
          `live: an event of ${Buffer.byteLength(payload)} bytes is too large for NOTIFY`,
        );
      }
      const connected = client ?? (await connect());
      await connected.query("select pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      closed = true;
      deliver = undefined;
      const open = client ?? (await connecting?.catch(() => undefined));
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
