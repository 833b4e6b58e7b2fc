import type { Redis } from "ioredis";
import { requireDependency } from "../base/require-dependency.js";
import type { LiveEvent } from "./live-event.js";
import type { Deliver, LiveTransport } from "./live-transport.js";

/**
 * Broadcasts over Redis pub/sub (the optional `ioredis` package): each process subscribes to
 * the app's channel on a connection of its own (a subscribed connection can do nothing else)
 * and publishes on another; Redis delivers each message to every subscriber, the publisher's
 * process included. ioredis resubscribes after a lost connection.
 *
 * @param url - the Redis URL (`LIVE_URL`)
 * @param channel - the app's channel (see `liveChannel`)
 */
export function redisTransport(url: string, channel: string): LiveTransport {
  const { Redis: RedisClient } = requireDependency<typeof import("ioredis")>("ioredis");
  let subscriber: Redis | undefined;
  let publisher: Redis | undefined;
  return {
    async start(deliver: Deliver) {
      subscriber = new RedisClient(url, { maxRetriesPerRequest: null });
      subscriber.on("error", (error: Error) => {
        console.error("live: Redis connection lost:", error.message);
      });
      subscriber.on("message", (from: string, message: string) => {
        if (from !== channel) return;
        try {
          const { s, e } = JSON.parse(message) as { s: string; e: LiveEvent };
          deliver(s, e);
        } catch (error) {
          console.error("live: unreadable message:", error);
        }
      });
      await subscriber.subscribe(channel);
    },
    async publish(stream, event) {
      publisher ??= new RedisClient(url, { maxRetriesPerRequest: 2 });
      await publisher.publish(channel, JSON.stringify({ s: stream, e: event }));
    },
    async close() {
      await Promise.all(
        [subscriber, publisher].map((client) => client?.quit().catch(() => client.disconnect())),
      );
      subscriber = publisher = undefined;
    },
  };
}
