// A client that sends its headers and then trickles the body (1 byte per 100 ms) must not delay
// other requests nor hold a database transaction, and is cut off after the request timeout.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../support/server.js";
import { sqliteDatabase, type TestDatabase } from "./support/databases.js";
import { report } from "./support/figures.js";
import { type Reply, rawStatus, sendJson } from "./support/http.js";
import { startShop } from "./support/shop.js";

const REQUEST_TIMEOUT_MS = 3_000;
const BODY = JSON.stringify({ title: "trickled", description: "x".repeat(400) });

describe("a slow body (1 byte per 100 ms)", () => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    // SQLite has one connection: a request holding a transaction would stall every other write.
    db = await sqliteDatabase();
    server = await startShop({
      databaseUrl: db.url,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("does not delay other requests or hold a transaction, and is cut off after the request timeout", async () => {
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    const closed = new Promise<void>((resolve) => {
      socket.on("close", () => resolve());
      socket.on("error", () => {});
    });
    socket.write(
      `POST /widgets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n`,
    );
    let sent = 0;
    const started = Date.now();
    const trickle = setInterval(() => {
      if (socket.destroyed || sent >= BODY.length) return;
      socket.write(BODY[sent]!);
      sent++;
    }, 100);

    // Meanwhile, until the server cuts the trickle off: writes and reads from other clients.
    const others: Reply[] = [];
    let creates = 0;
    while (!socket.destroyed && creates < 500) {
      others.push(await sendJson(server.url, "POST", "/widgets", { title: `quick ${creates}` }));
      creates++;
      others.push(await sendJson(server.url, "GET", "/widgets?per_page=5"));
    }
    await closed;
    const cutAfterMs = Date.now() - started;
    clearInterval(trickle);

    expect(creates).toBeGreaterThan(0);
    expect(others.map((r) => r.status)).toEqual(
      Array.from({ length: others.length }, (_, i) => (i % 2 === 0 ? 201 : 200)),
    );
    expect(sent).toBeLessThan(BODY.length);
    // Node answers 408 when it cuts a request off before the handler has answered.
    expect([0, 408]).toContain(rawStatus(received));
    const titles = (await db.rows("widgets")).map((r) => r.title);
    expect(titles).toHaveLength(creates);
    expect(titles).not.toContain("trickled");
    // Still serving after the cut-off.
    expect((await sendJson(server.url, "GET", "/widgets")).status).toBe(200);
    report("slow body", {
      request_timeout_ms: REQUEST_TIMEOUT_MS,
      body_bytes: BODY.length,
      bytes_sent_before_cut_off: sent,
      cut_off_after_ms: cutAfterMs,
      answer: rawStatus(received) || "connection closed",
      other_requests_during_trickle: others.length,
      other_failures: others.filter((r) => r.status >= 400).length,
    });
  }, 60_000);
});
