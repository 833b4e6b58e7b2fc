// Test-only server entry: examples/shop's built app (`dist/app.js`, made by `wisent build` from
// the src/app.ts that `wisent start`'s dist/server.js bundles too) with the fault routes below
// mounted through the public App API, then listening as the shop's src/server.ts does, with the
// listen options the tests need (the App checks its database first and closes it after
// draining). Nothing of the shop is copied: run it with the shop's folder as the working
// directory.
// Environment: the shop's own (DATABASE_URL, PORT, HOST, SESSION_SECRET, GO_ENV), plus
// REQUEST_TIMEOUT_MS and DRAIN_TIMEOUT_MS (listen options).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { app } = await import(pathToFileURL(join(process.cwd(), "dist", "app.js")).href);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pause = (c) => Math.min(Math.max(Number(c.req.query("ms")) || 0, 0), 10_000);

/** Writes a widget row in the request's transaction, as the shop's create does. */
async function writeWidget(c) {
  const attrs = await c.bind();
  const now = new Date().toISOString();
  const row = {
    id: randomUUID(),
    title: String(attrs.title ?? "fault"),
    description: null,
    created_at: now,
    updated_at: now,
  };
  await (await c.tx()).insertInto("widgets").values(row).execute();
  return row;
}

// Handlers that write and then fail, and slow ones for the shutdown test. The generated app has
// none of these; they sit after its routes, so they only answer paths the shop does not have.
// All are POSTs: a GET declared after the shop's `serveFiles("/", ...)` would never match, since
// its catch-all is the first matching GET route (routes are final, in declaration order).
const faults = app.group("/faults");
faults.post("/throw", async function ThrowingHandler(c) {
  await writeWidget(c);
  throw new Error("fault: the handler threw after writing");
});
faults.post("/unexpected", async function UnexpectedValueHandler(c) {
  const row = await writeWidget(c);
  return { title: row.title, note: "a plain object, not a Response" };
});
faults.post("/nothing", async function NothingHandler(c) {
  await writeWidget(c);
  return undefined;
});
faults.post("/slow", async function SlowHandler(c) {
  await sleep(pause(c));
  return c.json({ slept: pause(c) });
});
faults.post("/slow-create", async function SlowCreateHandler(c) {
  const row = await writeWidget(c);
  await sleep(pause(c));
  return c.json(row, 201);
});

const option = (name) => (process.env[name] ? Number(process.env[name]) : undefined);
const server = await app.listen({
  ...(option("REQUEST_TIMEOUT_MS") ? { requestTimeoutMs: option("REQUEST_TIMEOUT_MS") } : {}),
  ...(option("DRAIN_TIMEOUT_MS") ? { drainTimeoutMs: option("DRAIN_TIMEOUT_MS") } : {}),
});
console.log(`shop (${app.env}) listening on ${server.url}`);
