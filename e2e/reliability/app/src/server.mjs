// Starts the fixture app (src/server.ts in a generated app). Environment:
// DATABASE_URL, PORT (0: any free port), HOST, SESSION_SECRET, GO_ENV,
// REQUEST_TIMEOUT_MS, DRAIN_TIMEOUT_MS, POOL_SIZE, RELIABILITY_FAULTS=1 (test-only routes).
import { jsonLogger, openDatabase } from "wisent";
import { buildApp } from "./app.mjs";

const db = await openDatabase(process.env.DATABASE_URL, {
  poolSize: Number(process.env.POOL_SIZE) || 10,
});
const app = buildApp({
  db,
  logger: jsonLogger(),
  faults: process.env.RELIABILITY_FAULTS === "1",
});
app.onShutdown(() => db.close());
const server = await app.listen({
  port: Number(process.env.PORT ?? 3000),
  ...(process.env.REQUEST_TIMEOUT_MS
    ? { requestTimeoutMs: Number(process.env.REQUEST_TIMEOUT_MS) }
    : {}),
  ...(process.env.DRAIN_TIMEOUT_MS ? { drainTimeoutMs: Number(process.env.DRAIN_TIMEOUT_MS) } : {}),
});
console.log(JSON.stringify({ msg: "listening", url: server.url, pid: process.pid }));
