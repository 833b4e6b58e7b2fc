import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { PostgresDriver, sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { installAllContextMethods } from "../../app/test-support/context-methods.js";
import { isHttpError } from "../../base/http-error.js";
import type { Database } from "../../data/database.js";
import { recordPgStatements } from "../../data/test-support/pg-statements.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "../../data/test-support/test-databases.js";
import { Widget } from "../../data/test-support/widget.js";
import type { RequestTransaction } from "./request-transaction.js";
import { readBeforeTransaction, transaction } from "./transaction.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

const available = await availableDialects();

/** A small app over the widgets table; `seen` collects each request's transaction scope. */
function widgetsApp(db: Database, seen: RequestTransaction[] = []) {
  const app = new Hono();
  app.onError((err, c) =>
    c.json({ error: err.message }, (isHttpError(err) ? err.status : 500) as ContentfulStatusCode),
  );
  app.use(transaction(db));
  app.use(async (c, next) => {
    seen.push(c.get("tx"));
    await next();
  });
  app.post("/widgets", async (c) => {
    const body = await c.req.json(); // the body first: no transaction while it arrives
    const widget = await Widget.create(await c.tx(), body);
    return c.json(widget, 201);
  });
  app.post("/widgets/redirect", async (c) => {
    const widget = await Widget.create(await c.tx(), await c.req.json());
    return c.redirect(`/widgets/${widget.id}`, 303);
  });
  app.post("/widgets/then-422", async (c) => {
    await Widget.create(await c.tx(), await c.req.json());
    return c.json({ errors: { title: ["Title can not be blank."] } }, 422);
  });
  app.post("/widgets/then-throw", async (c) => {
    await Widget.create(await c.tx(), await c.req.json());
    throw new Error("boom");
  });
  app.get("/widgets/:id", async (c) => c.json(await Widget.find(await c.tx(), c.req.param("id"))));
  // GETs that write after reading: answering 404, throwing, answering 200.
  app.get("/widgets/:id/copy-then-404", async (c) => {
    const widget = await Widget.find(await c.tx(), c.req.param("id"));
    await Widget.create(await c.tx(), { title: `${widget.title} copy` });
    return c.json({ error: "gone" }, 404);
  });
  app.get("/widgets/:id/copy-then-throw", async (c) => {
    const widget = await Widget.find(await c.tx(), c.req.param("id"));
    await Widget.create(await c.tx(), { title: `${widget.title} copy` });
    throw new Error("boom");
  });
  app.get("/broken-read", async (c) => {
    await sql`select * from no_such_table`.execute(await c.tx());
    return c.text("unreachable");
  });
  app.get("/widgets/:id/copy", async (c) => {
    const widget = await Widget.find(await c.tx(), c.req.param("id"));
    return c.json(await Widget.create(await c.tx(), { title: `${widget.title} copy` }));
  });
  app.get("/ping", (c) => c.text("pong"));
  return app;
}

const post = (path: string, body: unknown) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("c.tx() without the middleware", () => {
  it("fails with HttpError 500 `no transaction found`", async () => {
    const app = new Hono();
    app.onError((err, c) =>
      c.text(err.message, (isHttpError(err) ? err.status : 599) as ContentfulStatusCode),
    );
    app.get("/", async (c) => {
      await c.tx();
      return c.text("unreachable");
    });
    const res = await app.request("/");
    expect(res.status).toBe(500);
    expect(await res.text()).toContain(
      "no transaction found: c.tx() needs the transaction() middleware",
    );
  });
});

describe.each(DIALECTS)("transaction middleware on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect], { poolSize: 5 });
  afterEach(async () => {
    vi.restoreAllMocks();
    if (available[dialect]) await t.db.kysely.deleteFrom("widgets").execute();
  });
  const count = async () => (await Widget.all(t.db.kysely)).length;
  const run = it.skipIf(!available[dialect]);

  run("commits when the handler answers below 400 (201 and 303)", async () => {
    const app = widgetsApp(t.db);
    const created = await app.fetch(post("/widgets", { title: "Gear" }));
    expect(created.status).toBe(201);
    const redirected = await app.fetch(post("/widgets/redirect", { title: "Cog" }));
    expect(redirected.status).toBe(303);
    expect((await Widget.all(t.db.kysely)).map((w) => w.title).sort()).toEqual(["Cog", "Gear"]);
  });

  run("rolls back when the handler answers 400 or more", async () => {
    const app = widgetsApp(t.db);
    const res = await app.fetch(post("/widgets/then-422", { title: "Gear" }));
    expect(res.status).toBe(422);
    expect(await count()).toBe(0);
  });

  run("rolls back when the handler throws", async () => {
    const app = widgetsApp(t.db);
    const res = await app.fetch(post("/widgets/then-throw", { title: "Gear" }));
    expect(res.status).toBe(500);
    expect(await count()).toBe(0);
  });

  run("rolls back a failed validation and a 404, and releases the connection", async () => {
    const app = widgetsApp(t.db);
    expect((await app.fetch(post("/widgets", { title: "" }))).status).toBe(422);
    const missing = await app.request("/widgets/0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: "widget not found: 0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b",
    });
    expect((await app.fetch(post("/widgets", { title: "After" }))).status).toBe(201);
    expect(await count()).toBe(1);
  });

  run("begins no transaction for a request that never asks for one", async () => {
    const begin = vi.spyOn(t.db, "beginRequest");
    const beginNow = vi.spyOn(t.db, "beginRequestNow");
    const seen: RequestTransaction[] = [];
    const res = await widgetsApp(t.db, seen).request("/ping");
    expect(await res.text()).toBe("pong");
    expect(begin).not.toHaveBeenCalled();
    expect(beginNow).not.toHaveBeenCalled();
    expect(seen[0]?.begun).toBe(false);
    // Once the response is out, the scope is closed: a stray late query cannot begin one.
    await expect(seen[0]!.get()).rejects.toThrow("the request's transaction has already finished");
  });

  run("leaves exactly 100 rows after 100 parallel creates", async () => {
    const app = widgetsApp(t.db);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => app.fetch(post("/widgets", { title: `w${i}` }))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(201));
    expect(await count()).toBe(100);
  });

  run("holds no transaction while a slow body arrives", async () => {
    const seen: RequestTransaction[] = [];
    const app = widgetsApp(t.db, seen);
    let finishBody!: () => void;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"title":'));
        finishBody = () => {
          controller.enqueue(encoder.encode('"Slow"}'));
          controller.close();
        };
      },
    });
    const slow = app.fetch(
      new Request("http://localhost/widgets", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    // With SQLite's single connection this would wait forever if the slow request held it.
    const quick = await app.fetch(post("/widgets", { title: "Quick" }));
    expect(quick.status).toBe(201);
    expect(seen[0]?.begun).toBe(false);
    finishBody();
    expect((await slow).status).toBe(201);
    expect((await Widget.all(t.db.kysely)).map((w) => w.title)).toEqual(["Quick", "Slow"]);
  });

  run(
    "holds no connection between readBeforeTransaction and c.tx() (slow work, e.g. a hash)",
    async () => {
      const app = widgetsApp(t.db);
      let finishWork!: () => void;
      const work = new Promise<void>((resolve) => {
        finishWork = resolve;
      });
      let working!: () => void;
      const reached = new Promise<void>((resolve) => {
        working = resolve;
      });
      app.post("/widgets/after-slow-work", async (c) => {
        const body = await c.req.json();
        const before = await readBeforeTransaction(c, (db) => Widget.all(db));
        working();
        await work; // a password being hashed
        const widget = await Widget.create(await c.tx(), {
          title: `${body.title} ${before.length}`,
        });
        return c.json(widget, 201);
      });
      const slow = app.fetch(post("/widgets/after-slow-work", { title: "Slow" }));
      await reached;
      // With SQLite's single connection this would wait forever if the read had kept it.
      const quick = await app.fetch(post("/widgets", { title: "Quick" }));
      expect(quick.status).toBe(201);
      finishWork();
      expect((await slow).status).toBe(201);
      expect((await Widget.all(t.db.kysely)).map((w) => w.title).sort()).toEqual([
        "Quick",
        "Slow 0",
      ]);
    },
  );

  it.skipIf(!available[dialect] || dialect !== "sqlite")(
    "turns a failed synchronous commit (SQLite) into a 500, rolls back and releases the connection",
    async () => {
      const beginNow = t.db.beginRequestNow.bind(t.db);
      vi.spyOn(t.db, "beginRequestNow").mockImplementationOnce((intent) => {
        const handle = beginNow(intent)!;
        return {
          trx: handle.trx,
          commit: () => handle.commit(),
          rollback: () => handle.rollback(),
          commitNow: () => {
            throw new Error("disk full, at once");
          },
          rollbackNow: () => handle.rollbackNow!(),
        };
      });
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const app = widgetsApp(t.db);
      const res = await app.fetch(post("/widgets", { title: "Lost" }));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: "database error on committing transaction" });
      expect(logged.mock.calls.some((call) => String(call[1]).includes("at once"))).toBe(true);
      expect(await count()).toBe(0);
      expect((await app.fetch(post("/widgets", { title: "Next" }))).status).toBe(201);
    },
  );

  run("turns a failed commit into a 500, logs the cause and releases the connection", async () => {
    const beginRequest = t.db.beginRequest.bind(t.db);
    // The handle below has no synchronous commit: begin through beginRequest, not beginRequestNow.
    vi.spyOn(t.db, "beginRequestNow").mockImplementationOnce(() => undefined);
    vi.spyOn(t.db, "beginRequest").mockImplementationOnce(async (intent) => {
      const handle = await beginRequest(intent);
      return {
        trx: handle.trx,
        commit: async () => {
          throw new Error("disk full");
        },
        rollback: () => handle.rollback(),
      };
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const app = widgetsApp(t.db);
    const res = await app.fetch(post("/widgets", { title: "Lost" }));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "database error on committing transaction" });
    expect(logged.mock.calls.some((call) => String(call[1]).includes("disk full"))).toBe(true);
    expect(await count()).toBe(0);
    expect((await app.fetch(post("/widgets", { title: "Next" }))).status).toBe(201);
  });
});

describe("requests through the transaction middleware on postgres (READ COMMITTED)", () => {
  const t = migratedTestDatabase("postgres", available.postgres, { poolSize: 3 });
  const run = it.skipIf(!available.postgres);
  afterEach(async () => {
    vi.restoreAllMocks();
    if (available.postgres) await t.db.kysely.deleteFrom("widgets").execute();
  });

  const firstWords = (statements: string[]) => statements.map((s) => s.split(/\s/)[0]);

  /** Every statement the pg clients send, and the connections taken/returned. */
  function observe() {
    const { statements: sent } = recordPgStatements();
    const acquire = vi.spyOn(PostgresDriver.prototype, "acquireConnection");
    const release = vi.spyOn(PostgresDriver.prototype, "releaseConnection");
    return {
      sent,
      connections: () => [acquire.mock.calls.length, release.mock.calls.length],
    };
  }

  async function seeded(app: Hono) {
    // The first GET also reads the server's isolation level: before the observation.
    expect((await app.request("/ping")).status).toBe(200);
    const widget = await Widget.create(t.db.kysely, { title: "Gear" });
    expect((await app.request(`/widgets/${widget.id}`)).status).toBe(200);
    return widget.id;
  }

  run("a JSON show sends its SELECT alone, without BEGIN or COMMIT", async () => {
    const app = widgetsApp(t.db);
    const id = await seeded(app);
    const { sent, connections } = observe();
    const res = await app.request(`/widgets/${id}`);
    expect(res.status).toBe(200);
    expect((await res.json()).title).toBe("Gear");
    expect(firstWords(sent)).toEqual(["select"]);
    expect(connections()).toEqual([1, 1]);
  });

  run("a GET that writes after reading begins at the write and commits it", async () => {
    const app = widgetsApp(t.db);
    const id = await seeded(app);
    const { sent, connections } = observe();
    expect((await app.request(`/widgets/${id}/copy`)).status).toBe(200);
    // The first write begins the transaction, with no savepoint (a refused one is rolled back).
    expect(firstWords(sent)).toEqual(["select", "begin", "insert", "commit"]);
    expect(connections()).toEqual([1, 1]);
    expect((await Widget.all(t.db.kysely)).map((w) => w.title).sort()).toEqual([
      "Gear",
      "Gear copy",
    ]);
  });

  run(
    "a JSON create sends BEGIN, INSERT and COMMIT, and a 422 after its write ROLLBACK",
    async () => {
      const app = widgetsApp(t.db);
      await seeded(app);
      const { sent, connections } = observe();
      expect((await app.request(post("/widgets", { title: "Made" }))).status).toBe(201);
      expect(firstWords(sent)).toEqual(["begin", "insert", "commit"]);
      expect((await app.request(post("/widgets/then-422", { title: "Undone" }))).status).toBe(422);
      expect(firstWords(sent.slice(3))).toEqual(["begin", "insert", "rollback"]);
      expect(connections()).toEqual([2, 2]);
      expect((await Widget.all(t.db.kysely)).map((w) => w.title).sort()).toEqual(["Gear", "Made"]);
    },
  );

  run("a GET that writes and answers 404 or throws rolls the write back", async () => {
    const app = widgetsApp(t.db);
    const id = await seeded(app);
    const { sent, connections } = observe();
    expect((await app.request(`/widgets/${id}/copy-then-404`)).status).toBe(404);
    expect(firstWords(sent)).toEqual(["select", "begin", "insert", "rollback"]);
    expect((await app.request(`/widgets/${id}/copy-then-throw`)).status).toBe(500);
    expect(connections()).toEqual([2, 2]);
    expect((await Widget.all(t.db.kysely)).map((w) => w.title)).toEqual(["Gear"]);
  });

  run("a GET whose read fails, or that never queries, gives back what it took", async () => {
    const app = widgetsApp(t.db);
    await seeded(app);
    const { sent, connections } = observe();
    expect((await app.request("/broken-read")).status).toBe(500);
    expect(firstWords(sent)).toEqual(["select"]);
    expect(connections()).toEqual([1, 1]);
    expect((await app.request("/ping")).status).toBe(200);
    expect(connections()).toEqual([1, 1]);
  });
});
