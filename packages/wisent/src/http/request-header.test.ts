import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { requestHeader } from "./request-header.js";

function app() {
  const hono = new Hono();
  hono.get("/", (c) =>
    c.json({
      accept: requestHeader(c, "accept") ?? null,
      cookie: requestHeader(c, "cookie") ?? null,
      missing: requestHeader(c, "x-missing") ?? null,
    }),
  );
  return hono;
}

describe("requestHeader", () => {
  it("reads Node's parsed headers when the Node adapter passes them (no Headers object built)", async () => {
    const request = new Request("http://localhost/", { headers: { accept: "text/plain" } });
    const incoming = { headers: { accept: "application/json", cookie: ["a=1", "b=2"] } };
    const res = await app().fetch(request, { incoming });
    expect(await res.json()).toEqual({
      accept: "application/json",
      cookie: "a=1, b=2",
      missing: null,
    });
  });

  it("reads the Request's headers elsewhere (app.fetch in tests)", async () => {
    const res = await app().request("/", { headers: { Accept: "text/html", Cookie: "lang=de" } });
    expect(await res.json()).toEqual({ accept: "text/html", cookie: "lang=de", missing: null });
  });
});
