/**
 * The files of records only signed-in users may see (an owned resource, and one nested in it)
 * are served only by signed URLs that expire, cached privately; a public resource's files keep
 * their plain, long-cached URL. In one process, on the local disk and on an S3-compatible server
 * (s3rver, started here on 127.0.0.1).
 */
import type { Context } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { authentication } from "../auth/authentication.js";
import { createTable } from "../data/create-table.js";
import { type Database, openDatabase } from "../data/database.js";
import { defineModel } from "../data/model.js";
import "../http/bind.js";
import { session } from "../middleware/session/index.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { Resource } from "../resources/resource.js";
import { signIn } from "../testing/sign-in.js";
import { type TestClient, testClient } from "../testing/test-client.js";
import { type AppStorage, useStorage } from "./app-storage.js";
import { attachment } from "./attachment-rule.js";
import {
  SIGNED_FILE_URL_SECONDS,
  SIGNED_URL_STEP_SECONDS,
  signedFileQuery,
} from "./file-url-signature.js";
import { PNG } from "./test-support/sample-files.js";
import { TestStorages } from "./test-support/test-storages.js";

const SECRET = "a-test-secret-of-at-least-32-characters!";
const ADA = { id: "0190f5a2-7b1c-7cde-8f00-00000000000a" };
const BOB = { id: "0190f5a2-7b1c-7cde-8f00-00000000000b" };
const USERS = new Map([ADA, BOB].map((u) => [u.id, u]));

const file = attachment({ types: ["image/*"] });
const Album = defineModel({
  table: "albums",
  schema: z.object({ user_id: z.uuid(), title: z.string(), cover: file }),
});
const Photo = defineModel({
  table: "photos",
  schema: z.object({ album_id: z.uuid(), image: file }),
});
const Poster = defineModel({ table: "posters", schema: z.object({ image: file }) });

/** Create and show of a model: enough to store a file and read its URL back. */
function resourceOf(
  model: typeof Album | typeof Photo | typeof Poster,
  param: string,
  parent?: string,
) {
  return new (class extends Resource<string> {
    override readonly model = model as never;
    override async create(c: Context) {
      const input = { ...(await c.bind()), ...(parent && { [parent]: c.req.param(parent) }) };
      const result = model.validate(input);
      if (!result.ok) return c.json(result.errors, 422);
      return c.json(await model.create(await c.tx(), result.data as never), 201);
    }
    override async show(c: Context) {
      return c.json(await model.find(await c.tx(), c.req.param(param) ?? ""));
    }
  })();
}

let db: Database;
beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
  await createTable(db.kysely, "users", (t) => {
    t.uuid("id").primary();
  });
  await createTable(db.kysely, "albums", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.string("title");
    t.json("cover");
    t.timestamps();
  });
  await createTable(db.kysely, "photos", (t) => {
    t.uuid("id").primary();
    t.references("album_id", "albums");
    t.json("image");
    t.timestamps();
  });
  await createTable(db.kysely, "posters", (t) => {
    t.uuid("id").primary();
    t.json("image");
    t.timestamps();
  });
  for (const user of USERS.values()) {
    await db.kysely.insertInto("users").values({ id: user.id }).execute();
  }
});
afterAll(async () => {
  useStorage(undefined);
  await db.close();
});

function albumsApp(): App {
  const app = new App({ name: "albums" });
  app.use(session({ secret: SECRET }));
  app.use(transaction(db));
  app.use(authentication({ load: (_c, id) => USERS.get(id) }));
  app.storedFiles();
  const albums = app.resource("/albums", resourceOf(Album, "album_id"), {
    ownedBy: "user_id",
    only: ["create", "show"],
  });
  albums.resource("/photos", resourceOf(Photo, "photo_id", "album_id"), {
    only: ["create", "show"],
  });
  app.resource("/posters", resourceOf(Poster, "poster_id"), { only: ["create", "show"] });
  return app;
}

const storages = new TestStorages("private");
beforeAll(() => storages.start());
afterAll(() => storages.stop());

const png = (name = "cat.png") => new File([new Uint8Array(PNG)], name, { type: "image/png" });

describe.each(storages.drivers)(
  "files of records behind a sign-in on $name",
  ({ storage: make }) => {
    let storage: AppStorage;
    let ada: TestClient;
    let guest: TestClient;
    beforeEach(async () => {
      storage = make();
      useStorage(storage);
      const app = albumsApp();
      ada = testClient(app, { sessionSecret: SECRET, headers: { accept: "application/json" } });
      await signIn(ada, ADA);
      guest = testClient(app, { sessionSecret: SECRET, headers: { accept: "application/json" } });
    });

    /** What a URL answers: the app's answer, or the storage's behind its redirect (S3). */
    async function fetchFile(client: TestClient, url: string) {
      const res = await client.get(url);
      if (res.status !== 302) return { res, cacheControl: res.headers.get("cache-control") };
      const location = res.headers.get("location")!;
      return { res: await fetch(location), cacheControl: res.headers.get("cache-control") };
    }

    /** The stored keys of the namespace (on S3, earlier tests' too). */
    async function keys(): Promise<string[]> {
      const found: string[] = [];
      for await (const { key } of storage.list()) found.push(key);
      return found;
    }

    it("serves an owned record's file by its signed URL only, cached privately until it expires", async () => {
      const res = await ada.post("/albums", { form: { title: "Cats", cover: png() } });
      expect(res.status, await res.clone().text()).toBe(201);
      const { cover } = await res.json();
      const url = new URL(cover.url, "http://localhost");
      expect(url.pathname).toMatch(/^\/files\/[0-9a-f-]{36}\.png\/cat\.png$/);
      expect(url.searchParams.get("signature")).toMatch(/^[\w-]{43}$/);
      const expires = Number(url.searchParams.get("expires"));
      const now = Date.now() / 1000;
      expect(expires - now).toBeGreaterThanOrEqual(SIGNED_FILE_URL_SECONDS - 1);
      expect(expires - now).toBeLessThanOrEqual(SIGNED_FILE_URL_SECONDS + SIGNED_URL_STEP_SECONDS);
      expect(await keys()).toEqual([`private/${url.pathname.split("/")[2]}`]);

      // Anyone holding the signed URL gets the file (an <img> sends no credentials to S3).
      const signed = await fetchFile(guest, cover.url);
      expect(signed.res.status).toBe(200);
      expect(Buffer.from(await signed.res.arrayBuffer())).toEqual(PNG);
      if (storage.location.driver === "fs") {
        expect(signed.cacheControl).toMatch(/^private, max-age=\d+$/);
        const maxAge = Number(/max-age=(\d+)/.exec(signed.cacheControl!)![1]);
        expect(maxAge).toBeLessThanOrEqual(SIGNED_FILE_URL_SECONDS + SIGNED_URL_STEP_SECONDS);
      } else {
        expect(signed.cacheControl).toBe("private, no-store");
      }

      // Its id alone, or with a variant, finds nothing (on S3: the bucket answers the redirect
      // 404); a changed signature or expiry is refused.
      expect((await fetchFile(guest, url.pathname)).res.status).toBe(404);
      expect((await fetchFile(ada, url.pathname)).res.status).toBe(404);
      expect((await guest.get(`${url.pathname}?variant=thumb`)).status).toBe(404);
      const forged = new URL(url);
      forged.searchParams.set("expires", String(expires + 3600));
      const refused = await guest.get(`${forged.pathname}${forged.search}`);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toContain("the file's link is not valid");
      // A link made long ago, signed rightly, has expired.
      const key = `private/${url.pathname.split("/")[2]}`;
      const old = signedFileQuery(key, Date.now() - 3 * 3600 * 1000);
      const expired = await guest.get(`${url.pathname}?${old}`);
      expect(expired.status).toBe(403);
      expect((await expired.json()).error).toContain("the file's link has expired");

      // A signed URL's variant is the variant of the same file.
      const thumb = await fetchFile(guest, `${cover.url}&variant=thumb`);
      expect(thumb.res.status).toBe(200);
      expect(thumb.res.headers.get("content-type")).toBe("image/webp");
    });

    it("makes the files of a resource nested in an owned one private too", async () => {
      const album = await (
        await ada.post("/albums", { form: { title: "Dogs", cover: png() } })
      ).json();
      const res = await ada.post(`/albums/${album.id}/photos`, { form: { image: png("dog.png") } });
      expect(res.status, await res.clone().text()).toBe(201);
      const { image } = await res.json();
      expect(image.url).toMatch(/\/dog\.png\?expires=\d+&signature=[\w-]{43}$/);
      expect((await fetchFile(guest, image.url.split("?")[0])).res.status).toBe(404);
      expect((await fetchFile(guest, image.url)).res.status).toBe(200);
    });

    it("keeps a public resource's files at a plain URL, cached for a year", async () => {
      const res = await guest.post("/posters", { form: { image: png("poster.png") } });
      expect(res.status, await res.clone().text()).toBe(201);
      const { image } = await res.json();
      expect(image.url).toMatch(/^\/files\/[0-9a-f-]{36}\.png\/poster\.png$/);
      const served = await fetchFile(guest, image.url);
      expect(served.res.status).toBe(200);
      if (storage.location.driver === "fs") {
        expect(served.cacheControl).toBe("private, max-age=31536000, immutable");
      }
      const id = image.url.split("/")[2];
      expect(await keys()).toContain(id);
      expect(await keys()).not.toContain(`private/${id}`);
    });
  },
);

describe("private files in production", () => {
  it("refuses to start without the secret their URLs are signed with, naming the resource", async () => {
    const saved = process.env.SESSION_SECRET;
    delete process.env.SESSION_SECRET;
    try {
      const app = new App({ name: "albums", env: "production" });
      expect(() =>
        app.resource("/albums", resourceOf(Album, "album_id"), { ownedBy: "user_id" }),
      ).toThrow(
        /: its records' files are private \(the resource needs a sign-in\), served by URLs signed with SESSION_SECRET: SESSION_SECRET is not set/,
      );
      // A public resource's files need no secret, and a made-up signature is refused, not a 500.
      const open = new App({ name: "posters", env: "production" });
      expect(() => {
        open.storedFiles();
        open.resource("/posters", resourceOf(Poster, "poster_id"), { only: ["show"] });
      }).not.toThrow();
      const id = "0190f5a2-7b1c-7cde-8f00-000000000001.png";
      const res = await open.fetch(
        new Request(`http://localhost/files/${id}/a.png?expires=1&signature=${"a".repeat(43)}`),
      );
      expect(res.status).toBe(403);
    } finally {
      if (saved !== undefined) process.env.SESSION_SECRET = saved;
    }
  });
});
