/** @jsxRuntime classic */
/** @jsx h */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { installAllContextMethods } from "../../app/test-support/context-methods.js";
import { FlashMessages } from "../../http/components.js";
import { errorResponse } from "../../http/error-response.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../../jsx/jsx-runtime.js";
import "../../http/respond.js";
import { session } from "../session/session.js";
import { flashMessages } from "./flash.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

function app() {
  const hono = new Hono();
  hono.onError(errorResponse);
  hono.use(session({ secret: "f".repeat(32), appName: "shop" }));
  hono.use(flashMessages());
  hono.post("/widgets", (c) => {
    c.flash("success", "Widget was successfully created.");
    c.flash("success", "Twice.");
    c.flash("warning", "Careful.");
    return c.redirect("/widgets/1", 303);
  });
  hono.get("/widgets/1", (c) => c.respond(200, { html: () => <FlashMessages /> }));
  hono.get("/api", (c) => c.json({ ok: true }));
  hono.post("/now", (c) => {
    c.flash("danger", "Shown now.");
    return c.respond(422, { html: () => <FlashMessages /> });
  });
  return hono;
}

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;

describe("flash", () => {
  it("survives the redirect, shows once on the next page, then is gone", async () => {
    const hono = app();
    const created = await hono.request("/widgets", { method: "POST" });
    expect(created.status).toBe(303);
    let cookie = cookieOf(created);
    const page = await hono.request("/widgets/1", { headers: { cookie } });
    const text = await page.text();
    expect(text).toContain('data-flash="success">Widget was successfully created.</div>');
    expect(text).toContain('data-flash="success">Twice.</div>');
    expect(text).toContain('data-flash="warning">Careful.</div>');
    cookie = cookieOf(page) || cookie;
    const again = await hono.request("/widgets/1", { headers: { cookie } });
    expect(await again.text()).not.toContain("data-flash");
  });

  it("is kept by responses that never show it", async () => {
    const hono = app();
    const cookie = cookieOf(await hono.request("/widgets", { method: "POST" }));
    const api = await hono.request("/api", { headers: { cookie } });
    expect(api.headers.get("set-cookie")).toBeNull();
    expect(await (await hono.request("/widgets/1", { headers: { cookie } })).text()).toContain(
      "Careful.",
    );
  });

  it("shows a flash set while rendering on that same page", async () => {
    const res = await app().request("/now", { method: "POST" });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('data-flash="danger">Shown now.</div>');
  });

  it("explains a missing session middleware", async () => {
    const hono = new Hono();
    hono.onError((err, c) => c.text(err.message, 500));
    hono.use(flashMessages());
    hono.get("/", (c) => c.text("x"));
    expect(await (await hono.request("/")).text()).toBe(
      "flash messages need the session() middleware before flash()",
    );
  });
});
