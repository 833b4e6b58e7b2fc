import type { Context, Handler } from "hono";
import { HttpError } from "../base/http-error.js";
import type { LiveStreams } from "./live-resource.js";
import { type SseOptions, sseResponse } from "./sse-response.js";
import { verifyStreamToken } from "./stream-token.js";

/** The path parameter of the live route: the stream's signed token. */
export const LIVE_STREAM_PARAM = "live_stream";

/** Limits of the live route. */
export interface LiveRouteOptions extends SseOptions {
  /** Open streams this process serves at most; beyond it a subscription gets 503 (default 10 000). */
  readonly maxConnections?: number;
}

/**
 * `GET /live/{live_stream}`: the event stream of one signed stream name. A tampered or forged
 * token is refused with 403; a stream of a resource that needs a signed-in reader answers 401
 * without one; an owned resource's stream only to its owner (403 to anyone else); 503 beyond
 * the process's connection cap.
 */
export function liveRouteHandler(streams: LiveStreams, options: LiveRouteOptions = {}): Handler {
  const maxConnections = options.maxConnections ?? 10_000;
  return async function liveStream(c: Context) {
    const name = verifyStreamToken(c.req.param(LIVE_STREAM_PARAM) ?? "", streams.secrets);
    if (name === undefined) throw new HttpError(403, "live_stream: not a stream this app signed");
    // A record page's stream is its list's and the record's id (`notes:<user id>/12`).
    const slash = name.indexOf("/");
    const list = slash === -1 ? name : name.slice(0, slash);
    const colon = list.indexOf(":");
    const stem = colon === -1 ? list : list.slice(0, colon);
    const spec = streams.resources.get(stem);
    if (!spec) throw new HttpError(404, `live_stream: no live resource ${stem}`);
    const user = c.currentUser();
    if ((spec.signInToRead || spec.ownedBy !== undefined) && !user) {
      throw new HttpError(401, "live_stream: sign in to follow this stream");
    }
    if (spec.ownedBy !== undefined && list !== `${stem}:${user?.id}`) {
      throw new HttpError(403, "live_stream: this stream is another user's");
    }
    if (streams.hub.subscriberCount >= maxConnections) {
      throw new HttpError(503, "live_stream: too many open streams, try again shortly", {
        headers: { "Retry-After": "5" },
      });
    }
    // Listening (PostgreSQL) before the stream opens: no change in between is missed.
    await streams.hub.start();
    return sseResponse(streams.hub, name, {
      ...options,
      lastEventId: c.req.header("last-event-id"),
    });
  };
}
