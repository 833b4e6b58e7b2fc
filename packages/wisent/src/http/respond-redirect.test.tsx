/** @jsxRuntime classic */
/** @jsx h */

import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { HttpError } from "../base/http-error.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import { flashMessages } from "../middleware/flash/flash.js";
import { session } from "../middleware/session/session.js";
import { FlashMessages } from "./components.js";
import type { RespondOptions } from "./respond.js";

const thing = { id: 7, name: "seven" };

/** An app whose actions answer HTML with `c.respond`'s redirect, JSON and XML as usual. */
function app(withFlash = true) {
  const a = new App({ name: "redirects", env: "test" });
  if (withFlash) {
    a.use(session({ secret: "r".repeat(32), appName: "redirects" }));
    a.use(flashMessages());
  }
  a.get("/things/{thing_id}", () => new Response("shown")).name("thing");
  a.get("/things", (c) => c.respond(200, { html: () => <FlashMessages /> }));
  a.post("/things", (c) =>
    c.respond(201, {
      redirect: ["thingPath", { thing_id: thing.id }],
      flash: { success: "Created." },
      json: thing,
      xml: thing,
      location: ["thingPath", { thing_id: thing.id }],
      headers: { "X-Thing": "7" },
    }),
  );
  a.delete("/things/{thing_id}", (c) =>
    c.respond(200, {
      redirect: "/things",
      flash: { success: "Gone.", info: "Bye." },
      redirectStatus: 302,
      json: thing,
    }),
  );
  a.put("/things/{thing_id}", (c) => c.respond(200, { redirect: "/things", json: thing }));
  // A refusal a browser is sent back from (as the generated destroy does with a DependentRecordsError).
  a.delete("/kept/{thing_id}", (c) =>
    c.respond(409, {
      redirect: ["thingPath", { thing_id: thing.id }],
      flash: { danger: "Thing has 2 parts." },
      error: new HttpError(409, "Thing has 2 parts.", { code: "E_DEPENDENT_RECORDS" }),
    }),
  );
  return a;
}

const request = (a: App, method: string, path: string, accept?: string, cookie?: string) =>
  a.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...(accept ? { accept } : {}), ...(cookie ? { cookie } : {}) },
    }),
  );
const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

describe("c.respond's redirect for HTML", () => {
  it("redirects a browser with 303 to the named route, the flash shown on the next page", async () => {
    const a = app();
    const res = await request(a, "POST", "/things", "text/html");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/things/7");
    expect(res.headers.get("vary")).toBe("Accept");
    expect(res.headers.get("x-thing")).toBe("7");
    expect(await res.text()).toBe("");
    const page = await request(a, "GET", "/things", "text/html", cookieOf(res));
    expect(await page.text()).toContain('data-flash="success">Created.</div>');
  });

  it("takes a path, several flash kinds and another redirect status", async () => {
    const a = app();
    const res = await request(a, "DELETE", "/things/7", "text/html");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/things");
    const text = await (await request(a, "GET", "/things", "text/html", cookieOf(res))).text();
    expect(text).toContain('data-flash="success">Gone.</div>');
    expect(text).toContain('data-flash="info">Bye.</div>');
  });

  it("answers JSON and XML clients with the status and body, no flash, the created Location", async () => {
    const a = app();
    const json = await request(a, "POST", "/things", "application/json");
    expect(json.status).toBe(201);
    expect(json.headers.get("location")).toBe("/things/7");
    expect(json.headers.get("x-thing")).toBe("7");
    expect(json.headers.get("set-cookie")).toBeNull();
    expect(await json.json()).toEqual(thing);
    const xml = await request(a, "POST", "/things", "application/xml");
    expect(xml.status).toBe(201);
    expect(xml.headers.get("content-type")).toBe("application/xml; charset=UTF-8");
    expect(await xml.text()).toContain("<name>seven</name>");
    expect(xml.headers.get("set-cookie")).toBeNull();
  });

  it("is the default for a browser's Accept and for none", async () => {
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    expect((await request(app(), "POST", "/things", browser)).status).toBe(303);
    expect((await request(app(), "POST", "/things")).status).toBe(303);
  });

  it("needs no flash middleware when it carries no flash", async () => {
    const res = await request(app(false), "PUT", "/things/7", "text/html");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/things");
  });

  it("names the missing middleware when it carries a flash", async () => {
    const res = await request(app(false), "POST", "/things", "text/html");
    expect(res.status).toBe(500);
  });

  it("takes a page or a redirect for HTML, not both, and a flash only with the redirect (tsc)", () => {
    const page: RespondOptions = { html: () => "page", json: thing };
    const redirect: RespondOptions = { redirect: "/things", flash: { info: "Hi." }, json: thing };
    // @ts-expect-error a page and a redirect for the same HTML client
    const both: RespondOptions = { html: () => "page", redirect: "/things" };
    // @ts-expect-error a flash for a redirect that is not there
    const flashOnly: RespondOptions = { html: () => "page", flash: { info: "Hi." } };
    expect([page, redirect, both, flashOnly]).toHaveLength(4);
  });
});

describe("c.respond's error for JSON and XML beside a redirect for HTML", () => {
  it("sends a browser back with the flash", async () => {
    const a = app();
    const res = await request(a, "DELETE", "/kept/7", "text/html");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/things/7");
    const page = await request(a, "GET", "/things", "text/html", cookieOf(res));
    expect(await page.text()).toContain('data-flash="danger">Thing has 2 parts.</div>');
  });

  it("answers JSON and XML as the error thrown would be, with its status and code", async () => {
    const a = app();
    const json = await request(a, "DELETE", "/kept/7", "application/json");
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({
      error: "Thing has 2 parts.",
      code: 409,
      error_code: "E_DEPENDENT_RECORDS",
    });
    const xml = await request(a, "DELETE", "/kept/7", "application/xml");
    expect(xml.status).toBe(409);
    const text = await xml.text();
    expect(text).toContain('<response code="409">');
    expect(text).toContain("<error_code>E_DEPENDENT_RECORDS</error_code>");
    expect(xml.headers.get("set-cookie")).toBeNull();
  });
});
