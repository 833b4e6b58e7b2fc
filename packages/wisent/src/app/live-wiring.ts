import type { Handler, MiddlewareHandler } from "hono";
import { WisentError } from "../base/wisent-error.js";
import { liveMaxConnections, liveTransportSetting } from "../config/settings.js";
import { watchWrites } from "../data/written-records.js";
import { type LiveResourceSpec, liveHandler } from "../live/live-resource.js";
import { LIVE_STREAM_PARAM, liveRouteHandler } from "../live/live-route.js";
import type { LiveRows } from "../live/live-rows.js";
import { liveStreamsOf } from "../live/live-streams.js";
import { liveTransportFor } from "../live/transports.js";
import {
  LIVE_SCRIPT_PATH,
  liveScriptHandler,
  TURBO_SCRIPT_PATH,
  turboScriptHandler,
} from "../live/turbo-assets.js";
import { resolveSessionPasswords } from "../middleware/session/session-secrets.js";
import type { ResourceOptions } from "../resources/options.js";
import type { AppCore } from "./app-core.js";
import type { RouteBuilder } from "./route-builder.js";

/** What `app.resource(..., { live: true })` hands the route mapping: how to wrap a handler. */
export interface LiveWiring {
  wrap(handler: Handler, operation: string | undefined): Handler;
}

type AddRoute = (
  method: string,
  fullPath: string,
  handler: Handler,
  how: { display: string; name?: string; internal?: boolean; stack?: MiddlewareHandler[] },
) => RouteBuilder;

/** The path of the app's one live route. */
export const LIVE_PATH = `/live/{${LIVE_STREAM_PARAM}}`;

/**
 * A live resource's wiring: the app's live streams (made, with `GET /live/{live_stream}`, on
 * its first live resource, behind the middleware declared before it), the resource's stream
 * registered, and the wrapper of its handlers (see `liveHandler`).
 */
export function liveWiring(
  core: AppCore,
  stem: string,
  options: ResourceOptions,
  model: unknown,
  addRoute: AddRoute,
  paramKey?: string,
): LiveWiring {
  const { streams, made } = liveStreamsOf(
    core,
    () => resolveSessionPasswords({ env: core.runtime.env }).map((password) => password.secret),
    () => liveTransportFor(liveTransportSetting(), core.runtime.name),
  );
  if (made) {
    // Before the stream route, which would read "turbo.js" as a (forged) stream name.
    addRoute("GET", LIVE_SCRIPT_PATH, liveScriptHandler, { display: "liveScript", internal: true });
    addRoute("GET", TURBO_SCRIPT_PATH, turboScriptHandler, {
      display: "turboScript",
      internal: true,
    });
    addRoute(
      "GET",
      LIVE_PATH,
      liveRouteHandler(streams, { maxConnections: liveMaxConnections() }),
      {
        display: "liveStream",
        name: "liveStreamPath",
        internal: true,
      },
    );
  }
  const authenticate = options.authenticate;
  const table = (model as { table?: unknown } | undefined)?.table;
  const modelName = (model as { name?: unknown } | undefined)?.name;
  if (typeof table === "string") watchWrites(table);
  const spec: LiveResourceSpec = {
    stem,
    table: typeof table === "string" ? table : undefined,
    paramKey,
    human: typeof modelName === "string" ? modelName.replace(/_/g, " ") : undefined,
    rows: liveRows(stem, options, modelName),
    ownedBy: options.ownedBy,
    signInToRead:
      options.ownedBy !== undefined ||
      authenticate === true ||
      (Array.isArray(authenticate) &&
        (authenticate.includes("list") || authenticate.includes("show"))),
  };
  streams.resources.set(stem, spec);
  return { wrap: (handler, operation) => liveHandler(handler, operation, spec, streams) };
}

/** A resource's targeted rows (`live: { row }`), checked: a model, and a list every reader shares. */
function liveRows(
  stem: string,
  options: ResourceOptions,
  modelName: unknown,
): LiveRows | undefined {
  const live = options.live;
  if (typeof live !== "object") return undefined;
  if (options.ownedBy !== undefined) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${stem}: live: { row } sends every reader the same rows; an owned resource's lists differ by owner, use live: true (each page refreshes itself)`,
    );
  }
  if (typeof modelName !== "string") {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${stem}: live: { row } needs the resource's model (its writes are the rows sent)`,
    );
  }
  return {
    row: live.row,
    modelName,
    target: live.target ?? stem,
    insertsBy: live.insertsBy ?? "append",
  };
}
