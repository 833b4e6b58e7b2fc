import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { requestRefusal } from "./request-guard.js";

/** The parts of a Node request the guard reads. */
function request(host: string, url = "/widgets"): IncomingMessage {
  return { url, headers: { host }, rawHeaders: ["Host", host] } as unknown as IncomingMessage;
}

describe("requestRefusal: the Host", () => {
  it.each(["xn--zz", "a.xn--", "xn--zz:3000", "1.2.3.256", 'a"b'])(
    "refuses Host %s with 400 before routing, keeping the connection",
    (host) => {
      for (const url of ["/widgets", "/widgets.json"]) {
        expect(requestRefusal(request(host, url), 1024)).toEqual({
          status: 400,
          message: "the Host header is not a valid host name (RFC 3986, WHATWG URL)",
          close: false,
        });
      }
    },
  );

  it.each(["127.0.0.1:3000", "shop.example", "xn--mnchen-3ya.de", "[::1]:3000"])(
    "lets Host %s through",
    (host) => expect(requestRefusal(request(host), 1024)).toBeUndefined(),
  );
});
