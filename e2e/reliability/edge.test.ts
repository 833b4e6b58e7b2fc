// Hostile but legal HTTP at the example shop (started with `wisent start`), over raw sockets:
// every shape gets a deliberate answer (never a 500, never a reset), refused requests' bodies
// are read before the answer, and idle or trickling connections are closed by the server.
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { report } from "./support/figures.js";
import { send } from "./support/http.js";
import { exchange, statusLines } from "./support/raw-exchange.js";
import { useShopOnSqlite } from "./support/shop.js";

const LIMIT = 1024 * 1024;

/** A request head; Host 127.0.0.1 and Connection: close unless `headers` say otherwise. */
function head(requestLine: string, headers: string[] = [], close = true): string {
  let lines = headers.some((h) => /^host:/i.test(h)) ? headers : ["Host: 127.0.0.1", ...headers];
  if (close && !lines.some((h) => /^connection:/i.test(h))) lines = [...lines, "Connection: close"];
  return `${requestLine}\r\n${lines.join("\r\n")}\r\n\r\n`;
}

/** [what, request head, body bytes, status, text the answer must hold, text it must not]. */
const SHAPES: [string, string, number, number, string?, string?][] = [
  ["GET with a body", head("GET /widgets HTTP/1.1", ["Content-Length: 5"]), 5, 200],
  ["HEAD with a body", head("HEAD /widgets HTTP/1.1", ["Content-Length: 5"]), 5, 200],
  ["TRACE", head("TRACE /widgets HTTP/1.1"), 0, 405, "allow:"],
  ["TRACE with a body", head("TRACE /widgets HTTP/1.1", ["Content-Length: 5"]), 5, 405],
  ["CONNECT", head("CONNECT 127.0.0.1:443 HTTP/1.1"), 0, 400, "not a proxy"],
  ["an unknown method", head("FROB /widgets HTTP/1.1"), 0, 400, "method"],
  ["PROPFIND", head("PROPFIND /widgets HTTP/1.1"), 0, 405, "allow:"],
  ["Host 1.2.3.256", head("GET /widgets HTTP/1.1", ["Host: 1.2.3.256"]), 0, 400, "Host header"],
  ['Host a"b', head("GET /widgets HTTP/1.1", ['Host: a"b']), 0, 400, "Host header", 'a"b'],
  // Punycode the URL standard refuses, which Node 24's own URL parser lets through.
  ["Host xn--zz", head("GET /widgets HTTP/1.1", ["Host: xn--zz"]), 0, 400, "Host header"],
  [
    "Host xn--zz (JSON)",
    head("GET /widgets.json HTTP/1.1", ["Host: xn--zz"]),
    0,
    400,
    "Host header",
  ],
  ["Host a.xn--", head("GET /widgets HTTP/1.1", ["Host: a.xn--"]), 0, 400, "Host header"],
  [
    "Host a.xn-- (JSON)",
    head("GET /widgets.json HTTP/1.1", ["Host: a.xn--"]),
    0,
    400,
    "Host header",
  ],
  [
    "two Host headers",
    head("GET /widgets HTTP/1.1", ["Host: a.example", "Host: b.example"]),
    0,
    400,
    "more than one Host",
  ],
  ["broken percent-encoding", head("GET /widgets/% HTTP/1.1"), 0, 400, "percent-encoding"],
  ["broken %zz in a path", head("GET /widgets/%zz HTTP/1.1"), 0, 400, "percent-encoding", "%zz"],
  [
    "Transfer-Encoding: gzip, chunked",
    head("POST /widgets.json HTTP/1.1", ["Transfer-Encoding: gzip, chunked"]),
    0,
    400,
    "Transfer-Encoding",
  ],
  [
    "Content-Encoding: br",
    head("POST /widgets.json HTTP/1.1", [
      "Content-Type: application/json",
      "Content-Encoding: br",
      "Content-Length: 4",
    ]),
    4,
    415,
    "Content-Encoding",
  ],
  [
    "Content-Encoding: gzip",
    head("POST /widgets.json HTTP/1.1", [
      "Content-Type: application/json",
      "Content-Encoding: gzip",
      "Content-Length: 4",
    ]),
    4,
    415,
  ],
  ["a 100 KB URL", head(`GET /widgets?q=${"a".repeat(100_000)} HTTP/1.1`), 0, 414],
  [
    "a body over the limit",
    head("POST /widgets.json HTTP/1.1", [
      "Content-Type: application/json",
      `Content-Length: ${LIMIT + 1}`,
    ]),
    LIMIT + 1,
    413,
    "connection: close",
  ],
];

/** Refused routes with bodies at and under the limit: [what, request head without length]. */
const REFUSED: [string, string, number][] = [
  ["404", "POST /no-such-page HTTP/1.1", 404],
  ["403 (no CSRF token)", "POST /widgets HTTP/1.1", 403],
  ["405", "DELETE /widgets HTTP/1.1", 405],
];

describe("hostile but legal HTTP at the example shop", () => {
  const shop = useShopOnSqlite();

  it.each(SHAPES)(
    "%s gets a deliberate answer",
    async (_what, request, bodyBytes, status, has, hasNot) => {
      const seen = await exchange(shop.server.port, request, bodyBytes);
      expect(seen.reset).toBe(false);
      expect(seen.status).toBe(status);
      if (has) expect(seen.output.toLowerCase()).toContain(has.toLowerCase());
      if (hasNot) expect(seen.output.split("\r\n\r\n").slice(1).join("")).not.toContain(hasNot);
    },
  );

  it("answers OPTIONS with 204 and the Allow of the routes that really match", async () => {
    const options = await send(shop.server.url, "/widgets", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    const member = await send(shop.server.url, "/widgets/abc", { method: "OPTIONS" });
    expect(member.headers.allow).toBe("GET, PUT, DELETE, HEAD, OPTIONS");
    // `new` is its own route, not an id: no PUT or DELETE.
    const onNew = await send(shop.server.url, "/widgets/new", { method: "PATCH" });
    expect(onNew.status).toBe(405);
    expect(onNew.headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("reads and drops the body of refused requests: every status seen, no reset", async () => {
    let resets = 0;
    let answered = 0;
    for (const [, requestLine, status] of REFUSED) {
      for (const size of [1, 64 * 1024, 512 * 1024, LIMIT]) {
        // Connection: close is where a server that answers before reading resets the client.
        const request = head(requestLine, [
          "Content-Type: application/x-www-form-urlencoded",
          `Content-Length: ${size}`,
          "Connection: close",
        ]);
        // A second request on the same connection, sent after the body: answered too.
        const seen = await exchange(shop.server.port, request, size);
        if (seen.reset) resets++;
        expect(seen.status, `${requestLine} with ${size} bytes`).toBe(status);
        answered++;
      }
    }
    report("refused requests with bodies within the limit", { answered, resets });
    expect(resets).toBe(0);
  });

  it("keeps the connection after a refused request's body was read", async () => {
    const body = "a".repeat(100_000);
    const pipelined =
      head(
        "POST /no-such-page HTTP/1.1",
        ["Content-Type: application/x-www-form-urlencoded", `Content-Length: ${body.length}`],
        false,
      ) +
      body +
      head("GET /widgets.json HTTP/1.1", ["Connection: close"]);
    const seen = await exchange(shop.server.port, pipelined);
    expect(seen.reset).toBe(false);
    expect(statusLines(seen.output)).toEqual([404, 200]);
  });

  it("sends 100 Continue only when the request will be read", async () => {
    const over = await exchange(
      shop.server.port,
      head("POST /widgets.json HTTP/1.1", [
        "Content-Type: application/json",
        `Content-Length: ${LIMIT + 1}`,
        "Expect: 100-continue",
      ]),
    );
    expect(statusLines(over.output)).toEqual([413]);
    const within = await exchange(
      shop.server.port,
      head("POST /widgets.json HTTP/1.1", [
        "Content-Type: application/json",
        "Content-Length: 2",
        "Expect: 100-continue",
        "Connection: close",
      ]),
      0,
      1_000,
    );
    expect(statusLines(within.output)[0]).toBe(100);
  });

  it("closes idle and trickling connections on its timeouts, and answers a normal client meanwhile", async () => {
    const sockets: Socket[] = [];
    const closed: Promise<void>[] = [];
    const timers: NodeJS.Timeout[] = [];
    for (let i = 0; i < 300; i++) {
      const socket = connect(shop.server.port, "127.0.0.1");
      socket.on("error", () => {});
      socket.resume();
      sockets.push(socket);
      closed.push(new Promise((resolve) => socket.once("close", () => resolve())));
      if (i % 2 === 1) {
        // Trickles a header a byte at a time, never finishing it.
        socket.write("GET /widgets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
        timers.push(setInterval(() => socket.writable && socket.write("a"), 500));
      }
    }
    try {
      const normal = await send(shop.server.url, "/widgets.json");
      expect(normal.status).toBe(200);
      // Node's default headersTimeout (60 s) would keep them past this test's timeout.
      await Promise.all(closed);
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    }
    const after = await send(shop.server.url, "/widgets.json");
    expect(after.status).toBe(200);
  }, 40_000);
});
