/**
 * Image variants through the stored-files route (`?variant=thumb`), made by sharp on the first
 * request and kept in the storage: on the local disk and on an S3-compatible server (s3rver,
 * started here on 127.0.0.1); the errors for an unknown variant, a file that is not an image and
 * bytes sharp cannot read; `<FileLink variant>`.
 */
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { FileLink } from "../http/file-link.js";
import { type AppStorage, useStorage } from "./app-storage.js";
import { imageVariant, resetImageVariants } from "./image-variants.js";
import { StoredAttachment, variantKey } from "./stored-attachment.js";
import { TestStorages } from "./test-support/test-storages.js";

const storages = new TestStorages("variants");
let photo: Buffer;

beforeAll(async () => {
  // An 800x600 photo, as a camera would send it.
  photo = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 80, b: 20 } },
  })
    .png()
    .toBuffer();
  await storages.start();
});
afterAll(async () => {
  useStorage(undefined);
  resetImageVariants();
  await storages.stop();
});

async function store(storage: AppStorage, bytes: Buffer, extension: string): Promise<string> {
  const key = `${randomUUID()}.${extension}`;
  await storage.put(key, Readable.from([bytes]), { contentType: "image/png", size: bytes.length });
  return key;
}

describe.each(storages.drivers)("image variants on $name", ({ storage: make }) => {
  let storage: AppStorage;
  let app: App;
  beforeAll(() => {
    storage = make();
    useStorage(storage);
    app = new App({ name: "variants", env: "test" });
    app.storedFiles();
  });

  /** The error message of a refused request for `url`, and its status. */
  async function refusal(url: string): Promise<[number, string]> {
    const res = await app.fetch(
      new Request(`http://localhost${url}`, { headers: { accept: "application/json" } }),
    );
    return [res.status, JSON.stringify(await res.json())];
  }

  /** The answer at `url`, following the signed S3 redirect. */
  async function get(url: string): Promise<Response> {
    const res = await app.fetch(new Request(`http://localhost${url}`));
    if (res.status !== 302) return res;
    return fetch(res.headers.get("location")!);
  }

  it("makes the thumbnail on the first request, stores it, and serves it from storage after", async () => {
    const key = await store(storage, photo, "png");
    const file = new StoredAttachment(key, "photo.png", "image/png", photo.length, "");
    expect(file.variantUrl("thumb")).toBe(`/files/${key}/photo.png?variant=thumb`);
    expect(await storage.exists(variantKey(key, "thumb", "webp"))).toBe(false);

    const [first, concurrent] = await Promise.all([
      get(file.variantUrl("thumb")),
      get(file.variantUrl("thumb")),
    ]);
    expect(first.status).toBe(200);
    expect(concurrent.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/webp");
    // Downloaded under its own name and type, not the original's.
    expect(first.headers.get("content-disposition")).toContain('filename="photo-thumb.webp"');
    const thumb = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
    expect(thumb).toMatchObject({ format: "webp", width: 320, height: 240 });
    expect(await storage.exists(variantKey(key, "thumb", "webp"))).toBe(true);

    // Served from the storage now: the original is no longer read.
    await storage.delete(key);
    const cached = await get(file.variantUrl("thumb"));
    expect(cached.status).toBe(200);
    expect((await sharp(Buffer.from(await cached.arrayBuffer())).metadata()).width).toBe(320);
  });

  it("makes variants an app declares, cropped to fill with fit cover", async () => {
    imageVariant("square", { width: 100, height: 100, fit: "cover" });
    const key = await store(storage, photo, "png");
    const res = await get(`/files/${key}/photo.png?variant=square`);
    resetImageVariants();
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ width: 100, height: 100 });
  });

  it("never enlarges a small image", async () => {
    const small = await sharp({
      create: { width: 40, height: 20, channels: 3, background: "#123456" },
    })
      .png()
      .toBuffer();
    const key = await store(storage, small, "png");
    const res = await get(`/files/${key}/small.png?variant=thumb`);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(40);
  });

  it("answers 400 naming the variant for an unknown one or a file that is not an image", async () => {
    const key = await store(storage, photo, "png");
    const [status, message] = await refusal(`/files/${key}/photo.png?variant=huge`);
    expect(status).toBe(400);
    expect(message).toContain('variant \\"huge\\" is not one of: thumb');
    const pdf = await store(storage, Buffer.from("%PDF-1.4\n"), "pdf");
    const [notImage, why] = await refusal(`/files/${pdf}/a.pdf?variant=thumb`);
    expect(notImage).toBe(400);
    expect(why).toContain(
      'variant \\"thumb\\" is made of images only; this file is application/pdf',
    );
  });

  it("answers 422 for bytes sharp cannot read, and stores no variant", async () => {
    const broken = Buffer.concat([photo.subarray(0, 40), Buffer.alloc(200, 1)]);
    const key = await store(storage, broken, "png");
    const [status, message] = await refusal(`/files/${key}/broken.png?variant=thumb`);
    expect(status).toBe(422);
    expect(message).toContain("variant could not be made: the image cannot be read");
    expect(await storage.exists(variantKey(key, "thumb", "webp"))).toBe(false);
  });
});

describe("FileLink with a variant", () => {
  it("shows an image's variant linked to the original, and a download link for other files", () => {
    const image = new StoredAttachment("k.png", "front.png", "image/png", 1, "");
    expect(String(FileLink({ file: image, variant: "thumb" }))).toBe(
      '<a href="/files/k.png/front.png"><img src="/files/k.png/front.png?variant=thumb" alt="front.png" class="attachment"/></a>',
    );
    const pdf = new StoredAttachment("k.pdf", "a.pdf", "application/pdf", 1, "");
    expect(String(FileLink({ file: pdf, variant: "thumb" }))).toBe(
      '<a href="/files/k.pdf/a.pdf" download="a.pdf">a.pdf</a>',
    );
  });
});
