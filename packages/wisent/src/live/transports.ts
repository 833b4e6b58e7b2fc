import cluster from "node:cluster";
import type { LiveTransportSetting } from "../config/settings.js";
import { clusterTransport } from "./cluster-transport.js";
import { type LiveTransport, memoryTransport } from "./live-transport.js";
import { liveChannel, postgresTransport } from "./postgres-transport.js";
import { redisTransport } from "./redis-transport.js";

/**
 * The transport `LIVE_URL` names (see `liveTransportSetting`): PostgreSQL LISTEN/NOTIFY or Redis
 * pub/sub across machines, else this process (and the other workers of `wisent start --workers
 * N` when it is one of them).
 * @param setting - what `LIVE_URL` says
 * @param appName - the app's name (its channel)
 */
export function liveTransportFor(setting: LiveTransportSetting, appName: string): LiveTransport {
  if (setting.kind === "postgres") return postgresTransport(setting.url, liveChannel(appName));
  if (setting.kind === "redis") return redisTransport(setting.url, liveChannel(appName));
  return cluster.isWorker ? clusterTransport() : memoryTransport();
}
