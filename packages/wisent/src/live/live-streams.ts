import { LiveHub } from "./live-hub.js";
import type { LiveStreams } from "./live-resource.js";
import type { LiveTransport } from "./live-transport.js";
import type { StreamSecrets } from "./stream-token.js";

const APPS = new WeakMap<object, LiveStreams>();

/**
 * The live streams of the app `key` stands for, made on its first live resource with the
 * transport `transport()` picks.
 */
export function liveStreamsOf(
  key: object,
  secrets: StreamSecrets,
  transport: () => LiveTransport,
): { streams: LiveStreams; made: boolean } {
  const found = APPS.get(key);
  if (found) return { streams: found, made: false };
  let cached: readonly string[] | undefined;
  const streams: LiveStreams = {
    hub: new LiveHub({ transport: transport() }),
    secrets: () => {
      cached ??= secrets();
      return cached;
    },
    resources: new Map(),
  };
  APPS.set(key, streams);
  return { streams, made: true };
}

/** The app's live streams if it has a live resource. */
export function existingLiveStreams(key: object): LiveStreams | undefined {
  return APPS.get(key);
}
