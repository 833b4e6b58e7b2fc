import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ADMIN_URLS, availableDialects } from "../data/test-support/test-databases.js";
import type { LiveEvent } from "./live-event.js";
import { liveChannel, postgresTransport } from "./postgres-transport.js";

const up = (await availableDialects()).postgres;
const run = it.skipIf(!up);

afterEach(() => vi.restoreAllMocks());

/** Two processes' transports on one channel: what the second receives, in order. */
async function pair() {
  const channel = liveChannel(`transport_${process.pid}_${Date.now()}`);
  const writer = postgresTransport(ADMIN_URLS.postgres, channel);
  const reader = postgresTransport(ADMIN_URLS.postgres, channel);
  const received: [string, LiveEvent][] = [];
  await writer.start(() => {});
  await reader.start((stream, event) => received.push([stream, event]));
  return { writer, reader, received };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("postgresTransport", () => {
  run(
    "sends events published while a NOTIFY is under way together, and delivers each in order",
    async () => {
      const { writer, reader, received } = await pair();
      const notifies = vi.spyOn(pg.Client.prototype, "query");
      try {
        const events = Array.from({ length: 50 }, (_, i) => ({
          event: "created",
          data: `{"n":${i}}`,
        }));
        await Promise.all(events.map((event, i) => writer.publish(`items/${i % 3}`, event)));
        await until(() => received.length === 50);
        expect(received).toEqual(events.map((event, i) => [`items/${i % 3}`, event]));
        const sent = notifies.mock.calls.filter(([text]) => String(text).includes("pg_notify"));
        // The first goes at once, alone; the 49 that waited for it leave in one more.
        expect(sent).toHaveLength(2);
      } finally {
        await Promise.all([writer.close(), reader.close()]);
      }
    },
  );

  run(
    "splits what waits at NOTIFY's size limit, and refuses an event too large for one",
    async () => {
      const { writer, reader, received } = await pair();
      try {
        const big = (i: number) => ({
          event: "updated",
          data: `{"n":${i},"x":"${"a".repeat(3_000)}"}`,
        });
        await Promise.all(Array.from({ length: 7 }, (_, i) => writer.publish("items", big(i))));
        await until(() => received.length === 7);
        expect(received.map(([, e]) => JSON.parse(e.data).n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
        await expect(
          writer.publish("items", { event: "updated", data: "a".repeat(8_000) }),
        ).rejects.toMatchObject({ code: "E_LIVE_EVENT_TOO_LARGE" });
        // An event as large as NOTIFY takes goes alone, between smaller ones.
        const envelope = JSON.stringify({ s: "items", e: { event: "updated", data: "" } }).length;
        const largest = { event: "updated", data: "b".repeat(7_900 - envelope) };
        await Promise.all([
          writer.publish("items", big(7)),
          writer.publish("items", largest),
          writer.publish("items", big(8)),
        ]);
        await until(() => received.length === 10);
        expect(received.slice(7).map(([, e]) => e.data.length)).toEqual([
          big(7).data.length,
          largest.data.length,
          big(8).data.length,
        ]);
      } finally {
        await Promise.all([writer.close(), reader.close()]);
      }
    },
  );
});
