/** @jsxRuntime classic */
/** @jsx h */

import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import { negotiateFormat } from "./format.js";
import "./respond.js";
import "./redirect.js";

function app() {
  const a = new App({ name: "vary", env: "test" });
  a.get("/things", (c) =>
    c.respond(200, { html: () => <p>things</p>, json: [{ id: 1 }], xml: [{ id: 1 }] }),
  );
  a.get("/things/new", (c) => c.respond(200, { html: () => <form /> }));
  a.post("/things", (c) =>
    negotiateFormat(c) === "html"
      ? c.redirectTo(303, "/things")
      : c.respond(201, { json: { id: 1 } }),
  );
  return a;
}

const get = (path: string, accept?: string, method = "GET") =>
  app().fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: accept === undefined ? {} : { accept },
    }),
  );

describe("Vary: Accept wherever the format follows Accept", () => {
  it.each([
    ["/things", "application/json"],
    ["/things", "text/html"],
    ["/things", undefined],
    ["/things", "application/xml;q=0.9, */*;q=0.1"],
    ["/things/new", "text/html"],
    ["/things/new", "application/json"], // 406
    ["/nothing-here", "application/json"], // 404
  ])("GET %s with Accept %s", async (path, accept) => {
    const res = await get(path, accept);
    expect(res.headers.get("vary")).toBe("Accept");
  });

  it("on a redirect chosen for a browser", async () => {
    const res = await get("/things", "text/html", "POST");
    expect(res.status).toBe(303);
    expect(res.headers.get("vary")).toBe("Accept");
  });

  it.each(["/things.json", "/things.xml", "/things?format=json"])(
    "not when the path or ?format= names it: %s",
    async (path) => {
      const res = await get(path, "text/html");
      expect(res.status).toBe(200);
      expect(res.headers.get("vary")).toBeNull();
    },
  );
});

describe("q=0 is honoured", () => {
  it.each([
    ["/things", "*/*;q=0", 406],
    ["/things", "text/html;q=0, application/json;q=0, application/xml;q=0", 406],
    ["/things/new", "text/html;q=0", 406],
    ["/things/new", "text/html;q=0, */*", 406],
    // Types left out of Accept are not acceptable either (RFC 9110 12.5.1).
    ["/things", "text/html;q=0", 406],
    ["/things", "image/png", 406],
    ["/things", "text/plain", 406],
    ["/things", "text/html;q=0, */*", 200],
  ])("GET %s with Accept %s answers %i", async (path, accept, status) => {
    const res = await get(path, accept);
    expect(res.status).toBe(status);
  });

  it("never answers HTML to text/html;q=0", async () => {
    const res = await get("/things", "text/html;q=0, */*");
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});
