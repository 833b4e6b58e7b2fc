import { app } from "./app.js";
import { db } from "./db.js";

// Fail now, naming the database, rather than on the first request.
await db.check();
app.onShutdown(() => db.close());

// PORT (default 3000) and HOST (default 127.0.0.1); SIGTERM and Ctrl-C drain requests, then exit.
const server = await app.listen();
console.log(`shop (${app.env}) listening on ${server.url}`);
