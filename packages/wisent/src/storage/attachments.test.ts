/**
 * Attachments end to end in one process: an App with the transaction middleware, a model with an
 * `attachment()` field, multipart requests, the stored-files route, on the local disk and on an
 * S3-compatible server (s3rver, started here on 127.0.0.1).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { createTable } from "../data/create-table.js";
import { type Database, openDatabase } from "../data/database.js";
import { defineModel } from "../data/model.js";
import "../http/bind.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { type AppStorage, useStorage } from "./app-storage.js";
import { attachment } from "./attachment-rule.js";
import { EXE, PNG } from "./test-support/sample-files.js";
import { TestStorages } from "./test-support/test-storages.js";
import { uploadFiles } from "./test-support/upload-leftovers.js";

const Image = defineModel({
  table: "images",
  schema: z.object({
    caption: z.string().trim().min(1),
    file: attachment({ types: ["image/*"], maxSize: 64 * 1024 }),
  }),
});

afterAll(() => {
  useStorage(undefined);
});

async function imagesApp(): Promise<{ app: App; db: Database }> {
  const db = await openDatabase("sqlite::memory:");
  await createTable(db.kysely, "images", (t) => {
    t.uuid("id").primary();
    t.string("caption");
    t.json("file");
    t.timestamps();
  });
  const app = new App({ name: "images", env: "test" });
  app.use(transaction(db));
  app.storedFiles();
  app.post("/images", async (c) => {
    const input = await c.bind();
    const result = Image.validate(input);
    if (!result.ok) return c.json(result.errors, 422);
    const image = await Image.create(await c.tx(), result.data);
    if (input.fail === "after") return c.json({ failed: true }, 500);
    return c.json(image, 201);
  });
  app.put("/images/:id", async (c) => {
    const input = await c.bind();
    const tx = await c.tx();
    const image = await Image.find(tx, c.req.param("id") ?? "");
    const result = Image.validate({ ...image, ...input });
    if (!result.ok) return c.json(result.errors, 422);
    return c.json(await Image.update(tx, image, result.data));
  });
  app.delete("/images/:id", async (c) => {
    const tx = await c.tx();
    return c.json(await Image.destroy(tx, await Image.find(tx, c.req.param("id") ?? "")));
  });
  app.get("/images/:id", async (c) =>
    c.json(await Image.find(await c.tx(), c.req.param("id") ?? "")),
  );
  return { app, db };
}

function form(fields: Record<string, string | [Buffer, string, string]>, method?: string) {
  const body = new FormData();
  if (method) body.append("_method", method);
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") body.append(name, value);
    else body.append(name, new Blob([new Uint8Array(value[0])], { type: value[2] }), value[1]);
  }
  return body;
}

function send(app: App, method: string, path: string, body?: FormData) {
  return app.fetch(new Request(`http://localhost${path}`, { method, body: body ?? null }));
}

const storages = new TestStorages("media");
beforeAll(() => storages.start());
afterAll(() => storages.stop());

function storedKeys(storage: AppStorage): Promise<string[]> {
  return (async () => {
    const keys: string[] = [];
    for await (const { key } of storage.list()) keys.push(key);
    return keys;
  })();
}

/** The temporary files of this process's uploads (the app's tmp/uploads/<pid>/). */
function uploadTemporaries(): string[] {
  return uploadFiles();
}

describe.each(storages.drivers)("attachments on $name", ({ name, storage: make }) => {
  let storage: AppStorage;
  let app: App;
  const before = new Set<string>();
  beforeEach(async () => {
    storage = make();
    useStorage(storage);
    for (const key of await storedKeys(storage)) await storage.delete(key);
    ({ app } = await imagesApp());
    for (const file of uploadTemporaries()) before.add(file);
  });

  /** The bytes at a file URL: streamed from the disk, or through the signed S3 redirect. */
  async function download(url: string, headers: Record<string, string> = {}) {
    const res = await app.fetch(new Request(`http://localhost${url}`, { headers }));
    if (res.status !== 302) return res;
    expect(name).toContain("S3");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    return fetch(res.headers.get("location")!, { headers });
  }

  it("stores a PNG sent in a form, answers its URL, and serves its bytes", async () => {
    const res = await send(
      app,
      "POST",
      "/images",
      form({ caption: "Cat", file: [PNG, "cat.png", "image/png"] }),
    );
    expect(res.status).toBe(201);
    const image = await res.json();
    expect(image.file).toMatchObject({ name: "cat.png", type: "image/png", size: PNG.length });
    expect(image.file.url).toMatch(/^\/files\/[0-9a-f-]{36}\.png\/cat\.png$/);
    expect(image.file.key).toBeUndefined();
    expect(await storedKeys(storage)).toHaveLength(1);
    const file = await download(image.file.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("content-disposition")).toMatch(/^inline; filename="cat.png"/);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    // What the model reads back carries the same URL.
    const shown = await (await send(app, "GET", `/images/${image.id}`)).json();
    expect(shown.file.url).toBe(image.file.url);
    expect(uploadTemporaries().filter((f) => !before.has(f))).toEqual([]);
  });

  it("answers a byte range with 206, and an impossible one with 416", async () => {
    const res = await send(
      app,
      "POST",
      "/images",
      form({ caption: "Cat", file: [PNG, "cat.png", "image/png"] }),
    );
    const { file } = await res.json();
    const part = await download(file.url, { range: "bytes=1-3" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1-3/${PNG.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(PNG.subarray(1, 4));
    const none = await download(file.url, { range: `bytes=${PNG.length + 10}-` });
    expect(none.status).toBe(416);
  });

  it("refuses an executable named cat.png by its bytes: 422 naming the field, nothing stored", async () => {
    const res = await send(
      app,
      "POST",
      "/images",
      form({ caption: "Cat", file: [EXE, "cat.png", "image/png"] }),
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.errors.file[0]).toMatch(
      /^File must be any image \(its bytes are application\/x-msdownload\)/,
    );
    expect(await storedKeys(storage)).toEqual([]);
    expect(uploadTemporaries().filter((f) => !before.has(f))).toEqual([]);
  });

  it("refuses a file over the attachment's limit: 422 naming the field and the limit, nothing left", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(70 * 1024)]);
    const res = await send(
      app,
      "POST",
      "/images",
      form({ caption: "Big", file: [big, "big.png", "image/png"] }),
    );
    expect(res.status).toBe(422);
    expect((await res.json()).errors.file).toEqual(["File must be at most 64 KB."]);
    expect(await storedKeys(storage)).toEqual([]);
    expect(uploadTemporaries().filter((f) => !before.has(f))).toEqual([]);
  });

  it("deletes what it stored when the transaction rolls back", async () => {
    const res = await send(
      app,
      "POST",
      "/images",
      form({ caption: "Cat", fail: "after", file: [PNG, "cat.png", "image/png"] }),
    );
    expect(res.status).toBe(500);
    expect(await storedKeys(storage)).toEqual([]);
  });

  it("deletes the replaced file after an update (a form's _method PUT) and the last one on destroy, with their thumbnails", async () => {
    const created = await (
      await send(
        app,
        "POST",
        "/images",
        form({ caption: "Cat", file: [PNG, "cat.png", "image/png"] }),
      )
    ).json();
    const [first] = await storedKeys(storage);
    // Its thumbnail, made on request, goes with it.
    expect([200, 302]).toContain((await download(`${created.file.url}?variant=thumb`)).status);
    expect(await storedKeys(storage)).toHaveLength(2);
    // A form without a new file keeps the stored one.
    const kept = await send(
      app,
      "POST",
      `/images/${created.id}`,
      form({ caption: "Still" }, "PUT"),
    );
    expect(kept.status).toBe(200);
    expect((await kept.json()).file.url).toBe(created.file.url);
    const replaced = await send(
      app,
      "POST",
      `/images/${created.id}`,
      form({ file: [PNG, "dog.png", "image/png"] }, "PUT"),
    );
    expect(replaced.status).toBe(200);
    const updated = await replaced.json();
    expect(updated.file.name).toBe("dog.png");
    const keys = await storedKeys(storage);
    expect(keys).toHaveLength(1);
    expect(keys).not.toContain(first);
    expect((await download(`${updated.file.url}?variant=thumb`)).status).toBe(200);
    expect(await storedKeys(storage)).toHaveLength(2);
    expect((await send(app, "DELETE", `/images/${created.id}`)).status).toBe(200);
    expect(await storedKeys(storage)).toEqual([]);
  });

  it("attaches a file from code (a File, a file: URL, a stream) with the same byte checks as an upload", async () => {
    const { db } = await imagesApp();
    const folder = mkdtempSync(join(tmpdir(), "wisent-seed-files-"));
    try {
      // What a seed or a script does: the File, the model's create, no multipart anywhere.
      const image = await Image.create(db.kysely, {
        caption: "Kindred",
        file: new File([new Uint8Array(PNG)], "kindred.png"),
      });
      expect(image.file).toMatchObject({
        name: "kindred.png",
        type: "image/png",
        size: PNG.length,
      });
      const served = await download(image.file.url);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
      // A path, as a URL (never a string a JSON body could send).
      const path = join(folder, "dawn.png");
      writeFileSync(path, PNG);
      const fromPath = await Image.update(db.kysely, image, { file: pathToFileURL(path) });
      expect(fromPath.file).toMatchObject({ name: "dawn.png", type: "image/png" });
      // A Node stream; the replaced file is deleted once the update is done (no transaction).
      const fromStream = await Image.update(db.kysely, fromPath, {
        file: Readable.from([PNG]),
      });
      expect(fromStream.file.name).toBe("file");
      expect((await Image.find(db.kysely, image.id)).file.checksum).toBe(fromStream.file.checksum);
      // The bytes decide, as for an upload: an executable named .png and typed image/png.
      const disguised = await Image.tryCreate(db.kysely, {
        caption: "Not a cat",
        file: new File([new Uint8Array(EXE)], "cat.png", { type: "image/png" }),
      });
      expect(disguised.errors?.get("file")[0]).toMatch(/^File must be any image \(its bytes are/);
      // Validating alone cannot read bytes: it says where files are read.
      expect(
        Image.validate({
          caption: "x",
          file: new File([new Uint8Array(PNG)], "x.png"),
        }).errors?.get("file"),
      ).toEqual(["File must be saved with the model's create or update, which read its bytes."]);
      expect(uploadTemporaries().filter((f) => !before.has(f))).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("refuses a made-up attachment in a JSON body", async () => {
    const res = await app.fetch(
      new Request("http://localhost/images", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          caption: "x",
          file: { key: "someone-elses.png", type: "image/png" },
        }),
      }),
    );
    expect(res.status).toBe(422);
    expect((await res.json()).errors.file).toEqual([
      "File must be a file sent as multipart/form-data.",
    ]);
  });
});
