import type { Context, Handler } from "hono";
import { BoundedMemo } from "../base/bounded-memo.js";
import { LIVE_STREAM_KEY } from "../base/symbols.js";
import { afterCommit } from "../data/transaction-hooks.js";
import { takeWrites, type WrittenRecord } from "../data/written-records.js";
import { headerPart, setHeaders } from "../kernel/response-headers.js";
import { type LiveEvent, turboVisit } from "./live-event.js";
import type { LiveHub } from "./live-hub.js";
import { type LiveRows, rowEvent } from "./live-rows.js";
import { type StreamSecrets, signStreamName } from "./stream-token.js";

/** What a live resource's streams need: its name and who may read it. */
export interface LiveResourceSpec {
  /** The resource's route stem (`widgets`, `widgetImages`): the stream's name. */
  readonly stem: string;
  /** The owner column: each owner has a stream of their own (`notes:<user id>`). */
  readonly ownedBy?: string | undefined;
  /** Whether reading the resource needs a signed-in user (then so does subscribing). */
  readonly signInToRead: boolean;
  /** The model's table: its writes in a request become `created`/`updated`/`destroyed` events. */
  readonly table?: string | undefined;
  /** The path parameter of one record (`widget_id`): a record page's stream is its own. */
  readonly paramKey?: string | undefined;
  /** What a record is called in the notice of a destroyed record's page (`widget`). */
  readonly human?: string | undefined;
  /** Targeted rows (`live: { row }`): the list stream gets `append`/`replace`/`remove`. */
  readonly rows?: LiveRows | undefined;
}

/** The streams of an app: its hub, its secret and its live resources by stream stem. */
export interface LiveStreams {
  readonly hub: LiveHub;
  readonly secrets: StreamSecrets;
  readonly resources: Map<string, LiveResourceSpec>;
}

/** The header of a live resource's List and Show answers: the path of its event stream. */
export const LIVE_STREAM_HEADER = "x-live-stream";

/** A stream name's signed token and, once a request has made it, its `X-Live-Stream` header. */
interface Subscription {
  readonly token: string;
  header?: Readonly<Record<string, string>>;
}

/** How many streams' subscriptions a live List or Show remembers (about 400 bytes each). */
const SUBSCRIPTIONS_REMEMBERED = 4_096;

const LIVE: typeof LIVE_STREAM_KEY = LIVE_STREAM_KEY;
type Marked = Context & { [LIVE]?: string };

/** The `X-Turbo-Request-Id` a Turbo tab sends with its requests, when it is sane. */
function turboRequestId(c: Context): string | undefined {
  const id = c.req.header("x-turbo-request-id");
  return id !== undefined && /^[\w-]{1,64}$/.test(id) ? id : undefined;
}

/**
 * The stream a request of this resource reads and writes: the resource's, or its owner's own
 * for an owned resource (undefined when there is no signed-in owner to name).
 */
export function streamNameFor(c: Context, spec: LiveResourceSpec): string | undefined {
  if (spec.ownedBy === undefined) return spec.stem;
  const user = c.currentUser();
  return user ? `${spec.stem}:${user.id}` : undefined;
}

/**
 * A record page's stream: the list's stream and the record's id (`widgets/12`,
 * `notes:<user id>/12`), so that its record's update refreshes it and its destroy sends it to
 * the list, and the other records' changes leave it alone.
 */
export function recordStreamName(list: string, id: string): string {
  return `${list}/${id}`;
}

/** The record id of a request on one record, when the resource has one. */
function recordId(c: Context, spec: LiveResourceSpec): string | undefined {
  return spec.paramKey === undefined ? undefined : c.req.param(spec.paramKey);
}

/** Where the page of a destroyed record goes: its list (the root when it cannot be named). */
function listPath(c: Context, spec: LiveResourceSpec): string {
  const params: Record<string, string> = { ...c.req.param() };
  if (spec.paramKey !== undefined) delete params[spec.paramKey];
  try {
    return c.get("wisent").pathFor(`${spec.stem}Path`, params);
  } catch {
    return "/";
  }
}

/** The signed token of the live stream the current page subscribes to, if it has one. */
export function liveStreamToken(c: Context): string | undefined {
  return (c as Marked)[LIVE];
}

/**
 * A live resource's handler: List and Show pages learn their stream's token (`<LiveUpdates />`
 * renders the subscription); Create, Update and Destroy broadcast a refresh to it once the
 * request's transaction commits (a rolled-back request, a 4xx or a thrown handler, broadcasts
 * nothing). Other routes are left as they are.
 */
export function liveHandler(
  handler: Handler,
  operation: string | undefined,
  spec: LiveResourceSpec,
  streams: LiveStreams,
): Handler {
  if (operation === "list" || operation === "show") {
    // A stream's token and header per name (the secrets are read once): the HMAC, the path
    // helper and the header's object were about a tenth of a live JSON show
    // (bench/load/ab-instructions.mjs). Sized well past a page of records: a client cycling
    // through 1,000 records (bench/load/ab.mjs) missed every time in a memo of 1,000.
    const subscriptions = new BoundedMemo<string, Subscription>(SUBSCRIPTIONS_REMEMBERED);
    // Remembered by the record's id alone when every reader shares the list's stream: the
    // stream's name would be a string made per request, copied and hashed for the lookup (about
    // a microsecond of a live JSON show, bench/load/ab.mjs with --cpu-prof).
    const shared = spec.ownedBy === undefined;
    const subscribe = (key: string): Subscription => ({
      token: signStreamName(
        shared ? (key === "" ? spec.stem : recordStreamName(spec.stem, key)) : key,
        streams.secrets,
      ),
    });
    // The memo's key: the record's id ("" on the list) when readers share the list's stream,
    // else the stream's name; undefined when there is no stream (no signed-in owner).
    const keyOf = (c: Context): string | undefined => {
      const id = operation === "show" ? recordId(c, spec) : undefined;
      if (shared) return id ?? "";
      const list = streamNameFor(c, spec);
      if (list === undefined) return undefined;
      return id === undefined ? list : recordStreamName(list, id);
    };
    return (c, next) => {
      const key = keyOf(c);
      if (key !== undefined) {
        const subscription = subscriptions.get(key, subscribe);
        (c as Marked)[LIVE] = subscription.token;
        // Where an API client follows the changes (the typed client's `live()`).
        subscription.header ??= headerPart({
          [LIVE_STREAM_HEADER]: c
            .get("wisent")
            .pathFor("liveStreamPath", { live_stream: subscription.token }),
        });
        setHeaders(c, subscription.header);
      }
      return handler(c, next);
    };
  }
  if (operation !== "create" && operation !== "update" && operation !== "destroy") return handler;
  return async (c, next) => {
    const answer = await handler(c, next);
    const name = streamNameFor(c, spec);
    if (name === undefined) return answer;
    const requestId = turboRequestId(c);
    const id = operation === "create" ? undefined : recordId(c, spec);
    const record = id === undefined ? undefined : recordStreamName(name, id);
    const scope = c.get("tx");
    if (scope?.begun) {
      const trx = await scope.get();
      const writes = spec.table === undefined ? [] : takeWrites(trx, spec.table);
      // Rendered now, in the writing request (its paths, its language), sent after the commit.
      const rows = spec.rows && writes.length > 0 ? rowEvents(c, spec.rows, writes) : undefined;
      const visit = operation === "destroy" ? destroyedVisit(c, spec) : undefined;
      await afterCommit(trx, async () => {
        if (rows) for (const event of rows) await streams.hub.publish(name, event);
        else streams.hub.refresh(name, requestId);
        if (record !== undefined) {
          if (visit) await sendToList(streams.hub, name, record, visit);
          else streams.hub.refresh(record, requestId);
        }
        for (const write of writes) {
          const event = recordEvent(write);
          await streams.hub.publish(name, event);
          if (record !== undefined && write.record.id === id) {
            await streams.hub.publish(record, event);
          }
        }
      });
    } else if (((answer as { status?: number } | undefined)?.status ?? 200) < 400) {
      // A write outside the request's transaction (none was begun) has committed already.
      streams.hub.refresh(name, requestId);
      if (record !== undefined) {
        if (operation === "destroy") {
          await sendToList(streams.hub, name, record, destroyedVisit(c, spec));
        } else streams.hub.refresh(record, requestId);
      }
    }
    return answer;
  };
}

/**
 * Sends the open pages of a destroyed record to the list. The list's refresh for the same
 * destroy goes first: sent after the list opened, it would render the list again and wipe the
 * notice saying why the reader is there.
 */
async function sendToList(hub: LiveHub, list: string, record: string, visit: LiveEvent) {
  await hub.flush(list);
  await hub.publish(record, visit);
}

/** What the open page of a destroyed record is told: go to the list, saying why. */
function destroyedVisit(c: Context, spec: LiveResourceSpec): LiveEvent {
  return turboVisit(
    listPath(c, spec),
    `The ${spec.human ?? "record"} you were viewing was deleted.`,
  );
}

/** The targeted actions of a request's writes; undefined when a row cannot be sent (a refresh is). */
function rowEvents(
  c: Context,
  rows: LiveRows,
  writes: readonly WrittenRecord[],
): LiveEvent[] | undefined {
  const events: LiveEvent[] = [];
  for (const write of writes) {
    const event = rowEvent(c, rows, write);
    if (event === undefined) return undefined;
    events.push(event);
  }
  return events;
}

/** Beyond this, an event carries the record's id only (PostgreSQL's NOTIFY takes < 8000 bytes). */
const MAX_RECORD_JSON = 7_000;

/**
 * The event of an API client's stream: `created`/`updated` with the record's JSON as the JSON
 * show answers it (its id only when larger than {@link MAX_RECORD_JSON}), `destroyed` with its id.
 */
export function recordEvent(write: WrittenRecord): LiveEvent {
  const id = { id: write.record.id };
  if (write.action === "destroyed") return { event: write.action, data: JSON.stringify(id) };
  const json = JSON.stringify(write.record);
  return { event: write.action, data: json.length > MAX_RECORD_JSON ? JSON.stringify(id) : json };
}
