import type { LiveTransportSetting } from "../config/settings.js";
import { type LiveTransport, memoryTransport } from "./live-transport.js";

/** The transport `LIVE_URL` names (see `liveTransportSetting`). */
export function liveTransportFor(setting: LiveTransportSetting): LiveTransport {
  switch (setting.kind) {
    case "memory":
      return memoryTransport();
    case "postgres":
      throw new Error("LIVE_URL: postgres is not supported yet");
  }
}
