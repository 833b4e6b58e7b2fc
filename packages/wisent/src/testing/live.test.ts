import type { Context } from "hono";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { type Database, openDatabase } from "../data/database.js";
import { defineModel } from "../data/model.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { ResourceBase } from "../resources/resource.js";
import { assertBroadcast, assertNoBroadcasts, broadcasts, clearBroadcasts } from "./live.js";
import { testClient } from "./test-client.js";

const Lamp = defineModel({ table: "lamps", schema: z.object({ title: z.string().min(1) }) });

class LampsResource extends ResourceBase<"lamp_id"> {
  override readonly model = Lamp;
  list(c: Context) {
    return c.json([]);
  }
  show(c: Context) {
    return c.json({});
  }
  async create(c: Context) {
    const saved = await Lamp.tryCreate(await c.tx(), await c.req.json());
    return saved.ok ? c.json(saved.data, 201) : c.json(saved.errors.toJSON(), 422);
  }
  update(c: Context) {
    return c.json({});
  }
  destroy(c: Context) {
    return c.body(null, 204);
  }
}

let db: Database;
let app: App;

beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
  await sql`create table lamps (id text primary key, title text not null, created_at text, updated_at text)`.execute(
    db.kysely,
  );
  app = new App({ name: "lamps", env: "test" });
  app.use(transaction(db));
  app.resource("/lamps", new LampsResource(), { live: true });
});
afterAll(() => db.close());
beforeEach(() => clearBroadcasts());

describe("assertBroadcast", () => {
  it("sees what a committed request broadcast, with the record's JSON", async () => {
    const client = testClient(app);
    const res = await client.post("/lamps", { json: { title: "Desk" }, csrf: false });
    expect(res.status).toBe(201);
    const created = assertBroadcast("lamps", "created");
    expect(JSON.parse(created.data!)).toMatchObject({ title: "Desk" });
    assertBroadcast("lamps", "refresh");
    expect(() => assertBroadcast("lamps", "destroyed")).toThrow(
      "expected destroyed to be broadcast to lamps; broadcast: refresh to lamps, created to lamps",
    );
  });

  it("sees nothing for a request that rolled back", async () => {
    const res = await testClient(app).post("/lamps", { json: { title: "" }, csrf: false });
    expect(res.status).toBe(422);
    assertNoBroadcasts("lamps");
    expect(broadcasts()).toEqual([]);
  });
});
