// src/server.ts of a generated app: check the database, serve, close it on shutdown.
import { app } from "./app.mjs";
import { db } from "./db.mjs";

await db.check();
app.onShutdown(() => db.close());
const server = await app.listen();
console.log(`${app.name} listening on ${server.url}`);
