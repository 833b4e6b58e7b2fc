/**
 * The app bench/upload/run.mjs uploads to, in its own process: what `wisent g r document title
 * file:attachment` makes of a create route, with the limits raised the documented way (the
 * App's `uploadLimit`, the attachment's `maxSize`; docs/guides/files-and-uploads.md). Storage
 * from STORAGE_URL, database from DATABASE_URL; prints "listening on <url>" when ready.
 * `GET /memory` answers this process's `process.memoryUsage()`; `PUT /buffered` reads a whole
 * body into memory, the control showing the bench sees a body held in memory.
 */
import { App, attachment, defineModel } from "wisent";
import { createTable, openDatabase } from "wisent/db";
import { transaction } from "wisent/middleware";
import { z } from "zod";

const MiB = 1024 * 1024;

const Document = defineModel({
  table: "documents",
  schema: z.object({
    title: z.string().trim().min(1),
    file: attachment({ maxSize: 512 * MiB }),
  }),
});

const db = await openDatabase(process.env.DATABASE_URL);
await createTable(db.kysely, "documents", (t) => {
  t.uuid("id").primary();
  t.string("title");
  t.json("file");
  t.timestamps();
});

const app = new App({ name: "upload-bench", env: "test", uploadLimit: 600 * MiB });
app.use(transaction(db));
app.storedFiles();
app.post("/documents", async (c) => {
  const result = await Document.tryCreate(await c.tx(), await c.bind());
  if (!result.ok) return c.json(result.errors, 422);
  return c.json(result.data, 201);
});
// PUT: a POST form is read for `_method` before any handler.
app.put("/buffered", async (c) => c.json({ size: (await c.req.arrayBuffer()).byteLength }));
app.get("/memory", (c) => c.json(process.memoryUsage()));

const server = await app.listen({ port: 0, host: "127.0.0.1", requestTimeoutMs: 600_000 });
console.log(`listening on ${server.url}`);
