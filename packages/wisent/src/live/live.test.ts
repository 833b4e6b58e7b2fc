import { Validator } from "@seriousme/openapi-schema-validator";
import type { Context, MiddlewareHandler } from "hono";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { bringsRouteGuards } from "../app/route-guards.js";
import { setCurrentUser } from "../auth/current-user.js";
import { AUTH_ROUTE_GUARDS } from "../auth/route-guards.js";
import { createClient } from "../client/create-client.js";
import { type Database, openDatabase } from "../data/database.js";
import { defineModel } from "../data/model.js";
import {
  ADMIN_URLS,
  availableDialects,
  redisAvailable,
} from "../data/test-support/test-databases.js";
import { h } from "../jsx/jsx-runtime.js";
import { transaction } from "../middleware/transaction/transaction.js";
import type { ResourceOptions } from "../resources/options.js";
import { ResourceBase } from "../resources/resource.js";
import type { RunningServer } from "../server/listen.js";
import { LiveHub } from "./live-hub.js";
import { liveStreamToken } from "./live-resource.js";
import { domId } from "./live-rows.js";
import { existingLiveStreams } from "./live-streams.js";
import { signStreamName } from "./stream-token.js";

/** Items written with raw SQL in the request's transaction; `?title=` of "" is a 422, "boom" throws. */
abstract class WritesResource<K extends string> extends ResourceBase<K> {
  list(c: Context) {
    return c.json({ token: liveStreamToken(c) ?? null });
  }
  show(c: Context) {
    return c.json({ token: liveStreamToken(c) ?? null });
  }
  async create(c: Context) {
    const title = c.req.query("title") ?? "";
    await sql`insert into items (title) values (${title})`.execute(await c.tx());
    if (title === "") return c.json({ errors: { title: ["can't be blank"] } }, 422);
    if (title === "boom") throw new Error("boom");
    return c.json({ title }, 201);
  }
  async update(c: Context) {
    await sql`update items set title = 'x' where id = ${c.req.param(this.paramKey)}`.execute(
      await c.tx(),
    );
    return c.json({}, 200);
  }
  async destroy(c: Context) {
    await sql`delete from items where id = ${c.req.param(this.paramKey)}`.execute(await c.tx());
    return c.body(null, 204);
  }
}
const Note = defineModel({ table: "items", name: "note", schema: z.object({ title: z.string() }) });
class ItemsResource extends WritesResource<"item_id"> {}
class NotesResource extends WritesResource<"note_id"> {
  override readonly model = Note;
  override list(c: Context) {
    c.ownerScope();
    return super.list(c);
  }
}
const Post = defineModel({ table: "posts", schema: z.object({ title: z.string().min(1) }) });
/** Writes through a model: its writes become the JSON events of API clients. */
class PostsResource extends ResourceBase<"post_id"> {
  override readonly model = Post;
  list(c: Context) {
    return c.json({ token: liveStreamToken(c) ?? null });
  }
  show(c: Context) {
    return c.json({});
  }
  async create(c: Context) {
    const title = c.req.query("title") ?? ((await c.req.json()) as { title?: string }).title ?? "";
    const saved = await Post.tryCreate(await c.tx(), { title });
    return saved.ok ? c.json(saved.data, 201) : c.json(saved.errors.toJSON(), 422);
  }
  async update(c: Context) {
    const tx = await c.tx();
    const post = await Post.find(tx, c.req.param("post_id") ?? "");
    const saved = await Post.tryUpdate(tx, post, { title: c.req.query("title") ?? "" });
    return saved.ok ? c.json(saved.data) : c.json(saved.errors.toJSON(), 422);
  }
  async destroy(c: Context) {
    const tx = await c.tx();
    await Post.destroy(tx, await Post.find(tx, c.req.param("post_id") ?? ""));
    return c.body(null, 204);
  }
}
class GadgetsResource extends WritesResource<"gadget_id"> {}
const Lamp = defineModel({ table: "lamps", schema: z.object({ title: z.string().min(1) }) });
/** Lamps' rows are sent themselves (`live: { row }`): a row with the lamp's dom id. */
const LampRow = (props: { record: { id: string; title: string } }) =>
  h("tr", { id: domId(Lamp, props.record) }, h("td", {}, props.record.title));
class LampsResource extends ResourceBase<"lamp_id"> {
  override readonly model = Lamp;
  list(c: Context) {
    return c.json({ token: liveStreamToken(c) ?? null });
  }
  show(c: Context) {
    return c.json({ token: liveStreamToken(c) ?? null });
  }
  async create(c: Context) {
    const saved = await Lamp.tryCreate(await c.tx(), { title: c.req.query("title") ?? "" });
    return saved.ok ? c.json(saved.data, 201) : c.json(saved.errors.toJSON(), 422);
  }
  async update(c: Context) {
    const tx = await c.tx();
    const lamp = await Lamp.find(tx, c.req.param("lamp_id") ?? "");
    const saved = await Lamp.tryUpdate(tx, lamp, { title: c.req.query("title") ?? "" });
    return saved.ok ? c.json(saved.data) : c.json(saved.errors.toJSON(), 422);
  }
  async destroy(c: Context) {
    const tx = await c.tx();
    await Lamp.destroy(tx, await Lamp.find(tx, c.req.param("lamp_id") ?? ""));
    return c.body(null, 204);
  }
}

/** A test's signed-in user: the `x-user` header (what authentication() would load). */
const userFromHeader: MiddlewareHandler = bringsRouteGuards(async (c, next) => {
  const id = c.req.header("x-user");
  setCurrentUser(c, id ? { id } : undefined);
  await next();
}, AUTH_ROUTE_GUARDS);

let db: Database;
let app: App;
let server: RunningServer;
const SECRET = "live-test-secret-".padEnd(40, "x");

let postsGroup: ReturnType<typeof declarePosts> | undefined;
function declarePosts(app: App) {
  return app.resource("/posts", new PostsResource(), { live: true });
}

function makeApp(name = "live"): App {
  const made = new App({ name, env: "test" });
  made.use(userFromHeader);
  made.use(transaction(db));
  made.resource("/items", new ItemsResource(), { live: true });
  made.resource("/notes", new NotesResource(), {
    live: true,
    ownedBy: "user_id",
    only: ["list", "create"],
  } as ResourceOptions);
  made.resource("/gadgets", new GadgetsResource());
  made.resource("/lamps", new LampsResource(), { live: { row: LampRow } });
  postsGroup = declarePosts(made);
  return made;
}

function hub() {
  const streams = existingLiveStreams((app as unknown as { core: object }).core);
  if (!streams) throw new Error("no live streams");
  return streams.hub;
}

/** An open event stream: the events read so far, waiting for the next, dropping it. */
interface OpenStream {
  readonly status: number;
  next(): Promise<string>;
  /** The last `id:` read. */
  lastId(): string | undefined;
  ended: Promise<void>;
  drop(): void;
}

async function openStream(path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(`${server.url}${path}`, { headers, signal: abort.signal });
  const events: string[] = [];
  const waiting: ((event: string) => void)[] = [];
  let lastId: string | undefined;
  let ended: Promise<void> = Promise.resolve();
  if (res.status === 200 && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    ended = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          buffer += value;
          let at = buffer.indexOf("\n\n");
          while (at !== -1) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const named = /^event: (.*)$/m.exec(block)?.[1];
            lastId = /^id: (.*)$/m.exec(block)?.[1] ?? lastId;
            const data = block
              .split("\n")
              .filter((line) => line.startsWith("data: "))
              .map((line) => line.slice(6))
              .join("\n");
            if (data) {
              const event = named ? `${named} ${data}` : data;
              const wait = waiting.shift();
              if (wait) wait(event);
              else events.push(event);
            }
            at = buffer.indexOf("\n\n");
          }
        }
      } catch {
        // dropped by the test
      }
    })();
  } else {
    await res.body?.cancel();
  }
  return {
    status: res.status,
    next: () => {
      const first = events.shift();
      return first !== undefined
        ? Promise.resolve(first)
        : new Promise((resolve) => waiting.push(resolve));
    },
    lastId: () => lastId,
    ended,
    drop: () => abort.abort(),
  };
}

async function tokenOf(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server.url}${path}`, { headers });
  const { token } = (await res.json()) as { token: string | null };
  if (!token) throw new Error(`no live token on ${path}`);
  return token;
}

function post(path: string, headers: Record<string, string> = {}, method = "POST") {
  return fetch(`${server.url}${path}`, { method, headers });
}

/** Waits (bounded) until `check` holds: listeners go away when the socket's close is seen. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

beforeAll(async () => {
  process.env.SESSION_SECRET = SECRET;
  db = await openDatabase("sqlite::memory:");
  await sql`create table items (id integer primary key, title text not null)`.execute(db.kysely);
  for (const table of ["posts", "lamps"]) {
    await sql`create table ${sql.table(table)} (id text primary key, title text not null, created_at text, updated_at text)`.execute(
      db.kysely,
    );
  }
  app = makeApp();
  server = await app.listen({ port: 0, host: "127.0.0.1", handleSignals: false });
});
afterAll(async () => {
  await server?.close();
  await db?.close();
  delete process.env.SESSION_SECRET;
});
afterEach(async () => {
  await eventually(() => hub().subscriberCount === 0);
});

describe("live resources", () => {
  it("broadcasts a Turbo refresh with the request's id once a create commits", async () => {
    const token = await tokenOf("/items");
    const stream = await openStream(`/live/${token}`);
    expect(stream.status).toBe(200);
    const created = await post("/items?title=first", { "x-turbo-request-id": "req-1" });
    expect(created.status).toBe(201);
    expect(await stream.next()).toBe(
      '<turbo-stream action="refresh" request-id="req-1"></turbo-stream>',
    );
    const updated = await post("/items/1", { "x-turbo-request-id": "req-2" }, "PUT");
    expect(updated.status).toBe(200);
    expect(await stream.next()).toContain('request-id="req-2"');
    const destroyed = await post("/items/1", { "x-turbo-request-id": "req-3" }, "DELETE");
    expect(destroyed.status).toBe(204);
    expect(await stream.next()).toContain('request-id="req-3"');
    stream.drop();
  });

  it("broadcasts nothing for a request that rolls back: a 422 and a thrown handler", async () => {
    const stream = await openStream(`/live/${await tokenOf("/items")}`);
    expect((await post("/items?title=", { "x-turbo-request-id": "bad-422" })).status).toBe(422);
    expect((await post("/items?title=boom", { "x-turbo-request-id": "bad-500" })).status).toBe(500);
    expect((await post("/items?title=good", { "x-turbo-request-id": "good" })).status).toBe(201);
    // Had either failed request broadcast, its refresh would come first (or merge into this one,
    // losing the request id).
    expect(await stream.next()).toBe(
      '<turbo-stream action="refresh" request-id="good"></turbo-stream>',
    );
    stream.drop();
  });

  it("sends API clients created, updated and destroyed with the record's JSON after the commit", async () => {
    const stream = await openStream(`/live/${await tokenOf("/posts")}`);
    const take = async (count: number) => {
      const got: string[] = [];
      for (let i = 0; i < count; i++) got.push(await stream.next());
      // The refresh is debounced; the record's event is sent at once.
      return got.filter((event) => !event.startsWith("<turbo-stream"));
    };
    const created = await post("/posts?title=hello");
    expect(created.status).toBe(201);
    const record = (await created.json()) as { id: string; title: string };
    const [createdEvent] = await take(2);
    expect(createdEvent?.startsWith("created ")).toBe(true);
    expect(JSON.parse(createdEvent!.slice("created ".length))).toMatchObject({
      id: record.id,
      title: "hello",
    });
    // A refused update (422) sends nothing; the next one does.
    expect((await post(`/posts/${record.id}?title=`, {}, "PUT")).status).toBe(422);
    expect((await post(`/posts/${record.id}?title=again`, {}, "PUT")).status).toBe(200);
    const [updatedEvent] = await take(2);
    expect(JSON.parse(updatedEvent!.slice("updated ".length))).toMatchObject({ title: "again" });
    expect((await post(`/posts/${record.id}`, {}, "DELETE")).status).toBe(204);
    const [destroyedEvent] = await take(2);
    expect(destroyedEvent).toBe(`destroyed {"id":"${record.id}"}`);
    stream.drop();
  });

  it("gives the typed client the changes as an async iterator", async () => {
    const api = createClient<{ posts: NonNullable<typeof postsGroup> }>({
      baseUrl: server.url,
      document: app.openApiDocument(),
    });
    const changes = api.posts.live()[Symbol.asyncIterator]();
    const first = changes.next();
    await eventually(() => hub().subscriberCount === 1);
    const created = await api.posts.create({ title: "from the client" });
    if (!created.ok) throw new Error("not created");
    expect((await first).value).toEqual({ type: "created", record: created.data });
    await api.posts.destroy({ post_id: created.data.id });
    expect((await changes.next()).value).toEqual({ type: "destroyed", id: created.data.id });
    await changes.return?.(undefined);
    const plain = createClient<{ gadgets: unknown }>({
      baseUrl: server.url,
      document: app.openApiDocument(),
    }) as unknown as { gadgets: { live(): AsyncIterable<unknown> } };
    await expect(async () => {
      for await (const _ of plain.gadgets.live()) break;
    }).rejects.toThrow("gadgets.live(): the resource is not live");
  });

  it("describes the stream in the OpenAPI document: the live operations and GET /live/{live_stream}", async () => {
    const document = app.openApiDocument();
    const checked = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    expect(checked.errors ?? []).toEqual([]);
    const list = document.paths["/posts"]?.get as Record<string, unknown>;
    expect(list["x-wisent-live"]).toBe(true);
    expect(JSON.stringify(list.responses)).toContain("X-Live-Stream");
    expect(document.paths["/gadgets"]?.get).not.toHaveProperty("x-wisent-live");
    const stream = document.paths["/live/{live_stream}"]?.get as Record<string, unknown>;
    expect(Object.keys((stream.responses as Record<string, object>)["200"]!)).toContain("content");
    expect(JSON.stringify(stream.responses)).toContain("text/event-stream");
  });

  it("gives a record page its own stream: refreshed by its record's update, sent to the list by its destroy", async () => {
    const list = await openStream(`/live/${await tokenOf("/items")}`);
    await post("/items?title=page-one", { "x-turbo-request-id": "setup" });
    await post("/items?title=page-two", { "x-turbo-request-id": "setup" });
    expect(await list.next()).toContain('request-id="setup"');
    const idOf = async (title: string) =>
      (await sql<{ id: number }>`select id from items where title = ${title}`.execute(db.kysely))
        .rows[0]!.id;
    const [one, two] = [await idOf("page-one"), await idOf("page-two")];
    const record = await openStream(`/live/${await tokenOf(`/items/${one}`)}`);
    expect((await post(`/items/${two}`, { "x-turbo-request-id": "other" }, "PUT")).status).toBe(
      200,
    );
    expect(await list.next()).toContain('request-id="other"');
    expect((await post(`/items/${one}`, { "x-turbo-request-id": "mine" }, "PUT")).status).toBe(200);
    expect(await list.next()).toContain('request-id="mine"');
    // The other record's update refreshed the list only: this is the record page's first event.
    expect(await record.next()).toBe(
      '<turbo-stream action="refresh" request-id="mine"></turbo-stream>',
    );
    expect((await post(`/items/${one}`, {}, "DELETE")).status).toBe(204);
    expect(await record.next()).toBe(
      '<turbo-stream action="visit" location="/items" notice="The record you were viewing was deleted."></turbo-stream>',
    );
    // The list the reader is sent to opens now: the destroy's refresh went before the visit, so
    // it does not reach this list (rendered after the destroy, it would wipe the notice). Had
    // it waited out its debounce, the next change would merge into it, losing its request id.
    const sentTo = await openStream(`/live/${await tokenOf("/items")}`);
    await post("/items?title=after", { "x-turbo-request-id": "after" });
    expect(await sentTo.next()).toBe(
      '<turbo-stream action="refresh" request-id="after"></turbo-stream>',
    );
    expect(await list.next()).toBe('<turbo-stream action="refresh"></turbo-stream>');
    expect(await list.next()).toContain('request-id="after"');
    sentTo.drop();
    record.drop();
    list.drop();
  });

  it("names a record page's stream after the model when it has one (the notice of its destroy)", async () => {
    const created = (await (await post("/posts?title=named")).json()) as { id: string };
    // What an API client follows: the path its Show answer names.
    const shown = await fetch(`${server.url}/posts/${created.id}`);
    const record = await openStream(shown.headers.get("x-live-stream") ?? "");
    expect((await post(`/posts/${created.id}`, {}, "DELETE")).status).toBe(204);
    const events = [await record.next(), await record.next()];
    expect(events).toContain(
      '<turbo-stream action="visit" location="/posts" notice="The post you were viewing was deleted."></turbo-stream>',
    );
    expect(events).toContain(`destroyed {"id":"${created.id}"}`);
    record.drop();
  });

  it("sends the list the row itself with live: { row }: append, replace, remove, and no refresh", async () => {
    const list = await openStream(`/live/${await tokenOf("/lamps")}`);
    const turbo = async () => {
      for (;;) {
        const event = await list.next();
        if (event.startsWith("<turbo-stream")) return event;
      }
    };
    const created = await post("/lamps?title=Desk%20%3Cb%3E");
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await turbo()).toBe(
      `<turbo-stream action="append" target="lamps"><template><tr id="lamp_${id}"><td>Desk &lt;b&gt;</td></tr></template></turbo-stream>`,
    );
    expect((await post(`/lamps/${id}?title=Floor`, {}, "PUT")).status).toBe(200);
    expect(await turbo()).toBe(
      `<turbo-stream action="replace" target="lamp_${id}"><template><tr id="lamp_${id}"><td>Floor</td></tr></template></turbo-stream>`,
    );
    expect((await post(`/lamps/${id}`, {}, "DELETE")).status).toBe(204);
    expect(await turbo()).toBe(`<turbo-stream action="remove" target="lamp_${id}"></turbo-stream>`);
    // A refused create sends nothing; a row is never followed by a refresh of the list.
    expect((await post("/lamps?title=")).status).toBe(422);
    expect((await post("/lamps?title=Last")).status).toBe(201);
    expect(await turbo()).toContain('action="append"');
    list.drop();
  });

  it("refuses live: { row } on an owned resource, whose lists differ by owner", () => {
    const owned = new App({ name: "live_owned_rows", env: "test" });
    expect(() =>
      owned.resource("/lamps", new LampsResource(), {
        live: { row: LampRow },
        ownedBy: "user_id",
      } as ResourceOptions),
    ).toThrow("an owned resource's lists differ by owner");
  });

  it("replays to a reconnecting stream (Last-Event-ID) the changes it missed", async () => {
    const first = await openStream(`/live/${await tokenOf("/items")}`);
    await post("/items?title=seen", { "x-turbo-request-id": "seen" });
    expect(await first.next()).toContain('request-id="seen"');
    const lastId = first.lastId();
    first.drop();
    await eventually(() => hub().subscriberCount === 0);
    await post("/items?title=missed", { "x-turbo-request-id": "missed" });
    await eventually(() => first.lastId() === lastId && hub().position !== lastId);
    const again = await openStream(`/live/${await tokenOf("/items")}`, {
      "last-event-id": lastId!,
    });
    expect(await again.next()).toBe(
      '<turbo-stream action="refresh" request-id="missed"></turbo-stream>',
    );
    again.drop();
  });

  it("refreshes a page whose stream reconnects with an id this process cannot replay from", async () => {
    const stream = await openStream(`/live/${await tokenOf("/items")}`, {
      "last-event-id": "open",
    });
    expect(await stream.next()).toBe('<turbo-stream action="refresh"></turbo-stream>');
    stream.drop();
  });

  it("serves Turbo and the live script that loads it with Drive off", async () => {
    const live = await fetch(`${server.url}/live/live.js`);
    expect(live.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await live.text()).toContain("session.drive = false");
    const turbo = await fetch(`${server.url}/live/turbo.js`);
    expect(turbo.status).toBe(200);
    expect(await turbo.text()).toContain("turbo-stream-source");
  });

  it("refuses a tampered or forged stream name with 403", async () => {
    const token = await tokenOf("/items");
    const [name, signature] = token.split(".") as [string, string];
    const tampered = `${Buffer.from("notes:someone").toString("base64url")}.${signature}`;
    expect((await openStream(`/live/${tampered}`)).status).toBe(403);
    const forged = signStreamName("items", () => ["another-secret-".padEnd(40, "y")]);
    expect((await openStream(`/live/${forged}`)).status).toBe(403);
    expect((await openStream(`/live/${name}.${"A".repeat(43)}`)).status).toBe(403);
    expect((await openStream("/live/garbage")).status).toBe(403);
  });

  it("gives an owned resource a stream per owner: 401 signed out, 403 to another user", async () => {
    const adaToken = await tokenOf("/notes", { "x-user": "ada" });
    const bobToken = await tokenOf("/notes", { "x-user": "bob" });
    expect(adaToken).not.toBe(bobToken);
    expect((await openStream(`/live/${adaToken}`)).status).toBe(401);
    expect((await openStream(`/live/${adaToken}`, { "x-user": "bob" })).status).toBe(403);
    const ada = await openStream(`/live/${adaToken}`, { "x-user": "ada" });
    expect(ada.status).toBe(200);
    // Bob's change goes to Bob's stream only; Ada's reaches Ada.
    await post("/notes?title=bobs", { "x-user": "bob", "x-turbo-request-id": "bob-1" });
    await post("/notes?title=adas", { "x-user": "ada", "x-turbo-request-id": "ada-1" });
    expect(await ada.next()).toContain('request-id="ada-1"');
    ada.drop();
  });

  it("gives pages of a resource that is not live no stream", async () => {
    const res = await fetch(`${server.url}/gadgets`);
    expect(await res.json()).toEqual({ token: null });
  });

  it("removes every subscriber of streams the clients dropped", async () => {
    const token = await tokenOf("/items");
    const streams = await Promise.all(
      Array.from({ length: 50 }, () => openStream(`/live/${token}`)),
    );
    expect(streams.every((s) => s.status === 200)).toBe(true);
    expect(hub().subscriberCount).toBe(50);
    for (const s of streams) s.drop();
    await eventually(() => hub().subscriberCount === 0 && hub().streamCount === 0);
  });
});

describe("the connection cap (LIVE_MAX_CONNECTIONS)", () => {
  it("answers 503 with Retry-After beyond it", async () => {
    process.env.LIVE_MAX_CONNECTIONS = "2";
    const capped = makeApp("live_capped");
    delete process.env.LIVE_MAX_CONNECTIONS;
    const running = await capped.listen({ port: 0, host: "127.0.0.1", handleSignals: false });
    try {
      const { token } = (await (await fetch(`${running.url}/items`)).json()) as { token: string };
      const open = [
        await fetch(`${running.url}/live/${token}`),
        await fetch(`${running.url}/live/${token}`),
      ];
      expect(open.map((r) => r.status)).toEqual([200, 200]);
      const refused = await fetch(`${running.url}/live/${token}`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      for (const r of open) await r.body?.cancel();
    } finally {
      await running.close();
    }
  });
});

describe("live streams on shutdown", () => {
  it("ends the open streams when the server drains, so it closes without waiting", async () => {
    const other = makeApp();
    const running = await other.listen({ port: 0, host: "127.0.0.1", handleSignals: false });
    const token = await (await fetch(`${running.url}/items`)).json();
    const res = await fetch(`${running.url}/live/${(token as { token: string }).token}`);
    const reader = res.body!.getReader();
    await reader.read();
    const closed = running.close();
    // The stream ends (done) rather than being cut after the drain timeout.
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    await closed;
    const streams = existingLiveStreams((other as unknown as { core: object }).core);
    expect(streams?.hub.subscriberCount).toBe(0);
  });
});

describe("LiveHub refreshes", () => {
  it("sends a burst of refreshes to one stream as one, without a request id they do not share", async () => {
    const bursts = new LiveHub({ debounceMs: 20 });
    const received: string[] = [];
    let arrived: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const drop = bursts.subscribe("items", {
      send: (event) => {
        received.push(event.data);
        if (received.length === 2) arrived();
      },
      close: () => {},
    });
    bursts.refresh("items", "one");
    bursts.refresh("items", "one");
    bursts.refresh("items", "one");
    bursts.refresh("other", "x");
    await new Promise((resolve) => setTimeout(resolve, 40));
    bursts.refresh("items", "two");
    bursts.refresh("items", "three");
    await done;
    expect(received).toEqual([
      '<turbo-stream action="refresh" request-id="one"></turbo-stream>',
      '<turbo-stream action="refresh"></turbo-stream>',
    ]);
    drop();
    await bursts.close();
  });
});

const postgres = (await availableDialects()).postgres;
const redisUp = await redisAvailable();

describe.each([
  ["PostgreSQL LISTEN/NOTIFY", ADMIN_URLS.postgres, postgres],
  ["Redis pub/sub", "redis://127.0.0.1:6379", redisUp],
] as const)("live broadcasts across processes on %s (LIVE_URL)", (_, url, up) => {
  it.skipIf(!up)("delivers a change written on one server to a subscriber of another", async () => {
    process.env.LIVE_URL = url;
    // Two servers of one app (its name is its channel), as two processes would run it.
    const name = `live_x_${process.pid}_${Date.now()}`;
    const writer = makeApp(name);
    const reader = makeApp(name);
    delete process.env.LIVE_URL;
    const [a, b] = await Promise.all(
      [writer, reader].map((one) =>
        one.listen({ port: 0, host: "127.0.0.1", handleSignals: false }),
      ),
    );
    try {
      const token = (await (await fetch(`${b!.url}/items`)).json()) as { token: string };
      const res = await fetch(`${b!.url}/live/${token.token}`);
      const body = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      await body.read();
      const created = await fetch(`${a!.url}/items?title=across`, {
        method: "POST",
        headers: { "x-turbo-request-id": "across-1" },
      });
      expect(created.status).toBe(201);
      let text = "";
      while (!text.includes("turbo-stream")) text += (await body.read()).value ?? "";
      expect(text).toContain(
        '<turbo-stream action="refresh" request-id="across-1"></turbo-stream>',
      );
      await body.cancel();
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });
});
