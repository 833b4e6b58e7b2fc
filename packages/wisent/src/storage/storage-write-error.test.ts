/**
 * A storage that refuses a write (here a storage folder that cannot be made: its parent is a
 * file, ENOTDIR; in the generated image's test, a folder the app's user may not write, EACCES)
 * answers 503, not a 500, and its log line names the path, the cause and STORAGE_URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { createTable } from "../data/create-table.js";
import { openDatabase } from "../data/database.js";
import { defineModel } from "../data/model.js";
import "../http/bind.js";
import { sharedLogger } from "../http/logger.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { openStorage, useStorage } from "./app-storage.js";
import { attachment } from "./attachment-rule.js";
import { StorageWriteError } from "./storage-write-error.js";
import { PNG } from "./test-support/sample-files.js";

const Cover = defineModel({
  table: "covers",
  schema: z.object({ title: z.string(), image: attachment({ types: ["image/*"] }) }),
});

const dir = mkdtempSync(join(tmpdir(), "wisent-storage-refused-"));
const blocker = join(dir, "not-a-folder");
writeFileSync(blocker, "");
const root = join(blocker, "storage");

afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  useStorage(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe("a storage write that fails", () => {
  it("answers 503 with Retry-After, saves no record, and logs the path, the cause and STORAGE_URL", async () => {
    const db = await openDatabase("sqlite::memory:");
    await createTable(db.kysely, "covers", (t) => {
      t.uuid("id").primary();
      t.string("title");
      t.json("image");
      t.timestamps();
    });
    useStorage(openStorage({ driver: "fs", root }));
    const app = new App({ name: "covers", env: "production" });
    app.use(transaction(db));
    app.post("/covers", async (c) => {
      const result = Cover.validate(await c.bind());
      if (!result.ok) return c.json(result.errors, 422);
      return c.json(await Cover.create(await c.tx(), result.data), 201);
    });
    const logged = vi.spyOn(sharedLogger(), "error").mockImplementation(() => {});
    const body = new FormData();
    body.append("title", "Kindred");
    body.append("image", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "kindred.png");
    const res = await app.fetch(
      new Request("http://localhost/covers", {
        method: "POST",
        body,
        headers: { accept: "application/json" },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      error: "file storage unavailable: please try again shortly",
      code: 503,
      error_code: "E_STORAGE_WRITE",
    });
    const lines = logged.mock.calls.map(([entry]) => entry as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "storage write failed",
      method: "POST",
      path: "/covers",
      cause: "ENOTDIR",
      setting: `STORAGE_URL (the folder ${root})`,
    });
    // Under the app's and environment's namespace (`<app>/<env>/`) in that folder.
    expect(lines[0]!.file).toMatch(new RegExp(`^${root}/[\\w.-]+/test/[0-9a-f-]{36}\\.png$`));
    expect(lines[0]!.error).toContain(`cannot store the file ${lines[0]!.file}: ENOTDIR`);
    expect(await db.kysely.selectFrom("covers").selectAll().execute()).toEqual([]);
    await db.close();
  });

  it("keeps S3's reason when the cause is not a system error", () => {
    const denied = Object.assign(new Error("Access Denied"), { name: "AccessDenied" });
    const wrapped = new Error('Cannot write file at location "a.png"', { cause: denied });
    const error = new StorageWriteError(
      { driver: "s3", bucket: "covers", region: "eu-west-1", forcePathStyle: false },
      "a.png",
      wrapped,
    );
    expect(error.code).toBe("E_STORAGE_WRITE");
    expect(error.reason).toBe("AccessDenied");
    expect(error.path).toBe("s3://covers/a.png");
    expect(error.message).toBe(
      "cannot store the file s3://covers/a.png: AccessDenied (Access Denied); the storage is STORAGE_URL (the bucket covers): make it writable by the app's user, or point STORAGE_URL elsewhere",
    );
  });
});
