/**
 * Replaced and destroyed files follow the committed row, on SQLite and PostgreSQL (a database
 * `storage_<random>`), through an App with the transaction middleware and real requests: an edit
 * of a record's caption that read the record before another request replaced its file does not
 * put the old (deleted) file back; a file deleted after the commit is one the committed row no
 * longer names.
 */
import type { Context } from "hono";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import "../http/bind.js";
import { readBeforeTransaction, transaction } from "../middleware/transaction/transaction.js";
import { type AppStorage, useStorage } from "../storage/app-storage.js";
import { attachment } from "../storage/attachment-rule.js";
import type { StoredAttachment } from "../storage/stored-attachment.js";
import { PNG } from "../storage/test-support/sample-files.js";
import { TestStorages } from "../storage/test-support/test-storages.js";
import { createTable } from "./create-table.js";
import { defineModel } from "./model.js";
import {
  availableDialects,
  createTestDatabase,
  type TestDatabase,
} from "./test-support/test-databases.js";

const available = await availableDialects();

const Image = defineModel({
  table: "images",
  schema: z.object({
    caption: z.string(),
    file: attachment({ types: ["image/*"] }),
  }),
});

/** A promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Per record: `read` settles once a caption edit has read it, `go` lets that edit write. */
const gates = new Map<string, { read: () => void; go: Promise<void> }>();

function imagesApp(t: TestDatabase, dialect: string): App {
  const app = new App({ name: "images" });
  app.use(transaction(t.db));
  app.post("/images", async (c) => {
    const result = await Image.tryCreate(await c.tx(), await c.bind());
    return result.ok ? c.json(result.data, 201) : c.json(result.errors, 422);
  });
  // The generated update: find, merge the input onto the record, update. On SQLite the record
  // is read before the transaction (its transactions take turns, so only a read outside one can
  // be overtaken); on PostgreSQL inside it, under READ COMMITTED.
  app.put("/images/:id", async (c: Context) => {
    const input = await c.bind();
    const id = c.req.param("id") ?? "";
    const image =
      dialect === "sqlite"
        ? await readBeforeTransaction(c, (db) => Image.find(db, id))
        : await Image.find(await c.tx(), id);
    const gate = gates.get(id);
    if (gate && !("file" in input)) {
      gate.read();
      await gate.go;
    }
    const tx = await c.tx();
    const result = await Image.tryUpdate(tx, image, { ...image, ...input });
    return result.ok ? c.json(result.data) : c.json(result.errors, 422);
  });
  // A handler that replaces the file, then gives the record its first file back, in one request.
  app.put("/images/:id/back", async (c: Context) => {
    const input = await c.bind();
    const tx = await c.tx();
    const image = await Image.find(tx, c.req.param("id") ?? "");
    const replaced = await Image.update(tx, image, { file: input.file as never });
    const back = await Image.update(tx, replaced, { file: image.file as StoredAttachment });
    return c.json(back);
  });
  // A handler that destroys the record inside a savepoint it then rolls back: the request's
  // transaction commits with the row, and its file, still there.
  app.delete("/images/:id/undone", async (c: Context) => {
    const tx = await c.tx();
    const image = await Image.find(tx, c.req.param("id") ?? "");
    await sql`savepoint undone_destroy`.execute(tx);
    await Image.destroy(tx, image);
    await sql`rollback to savepoint undone_destroy`.execute(tx);
    return c.json(await Image.find(tx, image.id));
  });
  app.delete("/images/:id", async (c: Context) => {
    const tx = await c.tx();
    await Image.destroy(tx, await Image.find(tx, c.req.param("id") ?? ""));
    return c.body(null, 204);
  });
  return app;
}

function form(fields: Record<string, string | Buffer>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") body.append(name, value);
    else body.append(name, new Blob([new Uint8Array(value)], { type: "image/png" }), "cat.png");
  }
  return body;
}

const storages = new TestStorages("attachments");
afterAll(() => {
  useStorage(undefined);
  return storages.stop();
});

describe.each(["sqlite", "postgres"] as const)("replaced files on %s", (dialect) => {
  let t: TestDatabase;
  let app: App;
  let storage: AppStorage;
  beforeAll(async () => {
    if (!available[dialect]) return;
    t = await createTestDatabase(dialect, { prefix: "storage", poolSize: 12 });
    await createTable(t.db.kysely, "images", (table) => {
      table.uuid("id").primary();
      table.string("caption");
      table.json("file");
      table.timestamps();
    });
    storage = storages.disk();
    useStorage(storage);
    app = imagesApp(t, dialect);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const send = (method: string, path: string, body: FormData) =>
    app.fetch(new Request(`http://localhost${path}`, { method, body }));

  async function created(): Promise<{ id: string; file: { url: string } }> {
    const res = await send("POST", "/images", form({ caption: "Cat", file: PNG }));
    expect(res.status, await res.clone().text()).toBe(201);
    return res.json();
  }

  /** Each record's file as the committed rows name it, and whether it is stored. */
  async function filesOfRows(): Promise<{ key: string; stored: boolean }[]> {
    useStorage(storage);
    const rows = await Image.all(t.db.kysely);
    return Promise.all(
      rows.map(async ({ file }) => ({ key: file.key, stored: await storage.exists(file.key) })),
    );
  }

  it.skipIf(!available[dialect])(
    "keeps the new file when a caption edit that read the record earlier commits after the replacement",
    async () => {
      const image = await created();
      const read = deferred();
      const go = deferred();
      gates.set(image.id, { read: read.resolve, go: go.promise });
      const edit = send("PUT", `/images/${image.id}`, form({ caption: "Renamed" }));
      await read.promise;
      const replace = await send("PUT", `/images/${image.id}`, form({ file: PNG }));
      expect(replace.status).toBe(200);
      go.resolve();
      expect((await edit).status).toBe(200);
      gates.delete(image.id);

      const row = await Image.find(t.db.kysely, image.id);
      expect(row.caption).toBe("Renamed");
      expect(row.file.url).toBe((await replace.json()).file.url);
      expect(await storage.exists(row.file.key)).toBe(true);
      // The first file is gone, and nothing else is left over.
      const keys: string[] = [];
      for await (const { key } of storage.list()) keys.push(key);
      expect(keys).toContain(row.file.key);
      expect(keys.some((key) => image.file.url.includes(key))).toBe(false);
    },
    30_000,
  );

  it.skipIf(!available[dialect])(
    "keeps a file the committed row names again: replaced, then given back in the same transaction",
    async () => {
      const image = await created();
      const res = await send("PUT", `/images/${image.id}/back`, form({ file: PNG }));
      expect(res.status, await res.clone().text()).toBe(200);
      const row = await Image.find(t.db.kysely, image.id);
      expect(row.file.url).toBe(image.file.url);
      expect(await storage.exists(row.file.key)).toBe(true);
    },
    30_000,
  );

  it.skipIf(!available[dialect])(
    "keeps the file of a destroy the committed row undid (a rolled-back savepoint), deletes it after a destroy that holds",
    async () => {
      const image = await created();
      const undone = await app.fetch(
        new Request(`http://localhost/images/${image.id}/undone`, { method: "DELETE" }),
      );
      expect(undone.status, await undone.clone().text()).toBe(200);
      const row = await Image.find(t.db.kysely, image.id);
      expect(row.file.url).toBe(image.file.url);
      expect(await storage.exists(row.file.key)).toBe(true);
      // A destroy that commits deletes the file.
      const destroyed = await app.fetch(
        new Request(`http://localhost/images/${image.id}`, { method: "DELETE" }),
      );
      expect(destroyed.status).toBe(204);
      expect(await storage.exists(row.file.key)).toBe(false);
    },
    30_000,
  );

  it.skipIf(!available[dialect])(
    "leaves no record naming a deleted file after 90 caption edits racing 90 replacements",
    async () => {
      const images = await Promise.all(Array.from({ length: 90 }, () => created()));
      await Promise.all(
        images.flatMap((image, i) => [
          send("PUT", `/images/${image.id}`, form({ caption: `Edited ${i}` })),
          send("PUT", `/images/${image.id}`, form({ file: PNG })),
        ]),
      );
      const dangling = (await filesOfRows()).filter((file) => !file.stored);
      expect(dangling).toEqual([]);
    },
    60_000,
  );
});
