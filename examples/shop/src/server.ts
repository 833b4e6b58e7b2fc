import { app } from "./app.js";

// PORT (default 3000) and HOST (default 127.0.0.1); SIGTERM and Ctrl-C drain requests, then exit.
// The database is checked first (a start-up failure names it) and closed last.
const server = await app.listen();
console.log(`shop (${app.env}) listening on ${server.url}`);
