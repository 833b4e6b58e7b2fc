import type { RouteRecord } from "../routes/route-registry.js";

type Paths = Record<string, Record<string, unknown>>;

/** The header a live resource's List and Show answers carry (see src/live/live-resource.ts). */
const LIVE_HEADER = "X-Live-Stream";

/**
 * A live app's event stream in its OpenAPI document: the List and Show operations of each live
 * resource say so (`x-wisent-live`, the `X-Live-Stream` header naming the stream's path), and
 * `GET /live/{live_stream}` is described as the `text/event-stream` the typed client's `live()`
 * reads.
 */
export function addLiveOperations(paths: Paths, records: readonly RouteRecord[]): void {
  let live = false;
  for (const record of records) {
    const meta = record.resource;
    if (!meta?.live || (meta.operation !== "list" && meta.operation !== "show")) continue;
    const path = Object.keys(paths).find(
      (p) => p.replace(/\{[^}]*\}/g, "{}") === record.path.template.replace(/\{[^}]*\}/g, "{}"),
    );
    const operation = path ? (paths[path]?.get as Record<string, unknown> | undefined) : undefined;
    if (!operation) continue;
    live = true;
    operation["x-wisent-live"] = true;
    const ok = (operation.responses as Record<string, Record<string, unknown>> | undefined)?.[
      "200"
    ];
    if (ok) {
      ok.headers = {
        ...(ok.headers as object | undefined),
        [LIVE_HEADER]: {
          description: `The path of this resource's event stream (GET it as text/event-stream)`,
          schema: { type: "string" },
        },
      };
    }
  }
  if (!live) return;
  paths["/live/{live_stream}"] = {
    get: {
      operationId: "liveStream",
      summary: "The changes of a live resource, as Server-Sent Events",
      description:
        "Open the path a live resource's List or Show answer names in X-Live-Stream. Events: `created` and `updated` (data: the record's JSON, as Show answers it), `destroyed` (data: `{\"id\": ...}`), and unnamed Turbo Stream messages for pages (a refresh, a row's append, replace or remove, a destroyed record's visit). Each event has an id: a client that reconnects with it as Last-Event-ID gets the events it missed while the process still has them, otherwise an unnamed refresh (list again). A comment line every 15 s keeps the stream open.",
      parameters: [
        {
          name: "live_stream",
          in: "path",
          required: true,
          description: "The stream's signed name, from X-Live-Stream",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "The event stream",
          content: { "text/event-stream": { schema: { type: "string" } } },
        },
        "401": { description: "The resource needs a signed-in user" },
        "403": { description: "A forged stream name, or another user's stream" },
        "503": { description: "The server holds too many streams; try again shortly" },
      },
      security: [],
    },
  };
}
