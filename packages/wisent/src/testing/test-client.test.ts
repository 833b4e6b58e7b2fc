import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { installAllContextMethods } from "../app/test-support/context-methods.js";
import { errorResponse } from "../http/error-response.js";
import { csrf } from "../middleware/csrf/csrf.js";
import { flashMessages } from "../middleware/flash/flash.js";
import { session } from "../middleware/session/session.js";
import { CookieJar } from "./cookie-jar.js";
import { testClient } from "./test-client.js";

// These tests run Wisent's middleware and helpers on a bare Hono app: no App installs them.
installAllContextMethods();

const SECRET = "t".repeat(32);

function app() {
  const hono = new Hono();
  hono.onError(errorResponse);
  hono.use(session({ secret: SECRET, appName: "shop" }));
  hono.use(flashMessages());
  hono.use(csrf());
  hono.post("/login", (c) => {
    c.get("session").set("user", "ada");
    c.flash("info", "Hello");
    return c.redirect("/a", 302);
  });
  hono.get("/a", (c) => c.redirect("/b", 301));
  hono.get("/b", (c) => c.text(`user=${c.get("session").get("user")}`));
  hono.delete("/thing", (c) => c.text("deleted"));
  hono.get("/loop", (c) => c.redirect("/loop"));
  return hono;
}

describe("testClient", () => {
  it("posts forms with a CSRF token it makes itself, keeps cookies and reads flash", async () => {
    const client = testClient(app(), { appName: "shop", sessionSecret: SECRET });
    const res = await client.post("/login", { form: { name: "ada" } });
    expect(res.status).toBe(302);
    expect(await client.flash()).toEqual({ info: ["Hello"] });
    expect((await client.session()).user).toBe("ada");
    const final = await client.post("/login", { form: {}, followRedirects: true });
    expect(await final.text()).toBe("user=ada");
  });

  it("sends the token as a header for body-less unsafe requests, and can leave it out", async () => {
    const client = testClient(app(), { appName: "shop", sessionSecret: SECRET });
    expect(await (await client.delete("/thing")).text()).toBe("deleted");
    expect((await client.delete("/thing", { csrf: false })).status).toBe(403);
  });

  it("adds the token to a form a Request carries (the typed client's files), with no session yet", async () => {
    const client = testClient(app(), { appName: "shop", sessionSecret: SECRET });
    const body = new FormData();
    body.append("file", new File(["x"], "x.txt"));
    const res = await client.fetch(new Request("http://localhost/login", { method: "POST", body }));
    expect(res.status).toBe(302);
  });

  it("sends several files under one name as a multipart form", async () => {
    const hono = new Hono();
    hono.post("/scans", async (c) => {
      const files = (await c.req.formData()).getAll("scans") as File[];
      return c.json(files.map((file) => file.name));
    });
    const res = await testClient(hono).post("/scans", {
      form: { scans: [new File(["a"], "a.png"), new File(["b"], "b.png")] },
      csrf: false,
    });
    expect(await res.json()).toEqual(["a.png", "b.png"]);
  });

  it("stops following after 10 redirects and explains non-redirects", async () => {
    const client = testClient(app(), { appName: "shop", sessionSecret: SECRET });
    await expect(client.get("/loop", { followRedirects: true })).rejects.toThrow(
      /more than 10 redirects/,
    );
    await expect(client.follow(new Response("x"))).rejects.toThrow(/not a redirect/);
  });

  it("asks for an app name when the app has none", async () => {
    await expect(testClient(app()).post("/login", { form: {} })).rejects.toThrow(
      /pass \{ appName \}/,
    );
  });
});

describe("CookieJar", () => {
  it("stores, replaces and deletes cookies", () => {
    const jar = new CookieJar();
    jar.storeHeader("a=1; Path=/; HttpOnly");
    jar.storeHeader("b=2");
    jar.storeHeader("a=3");
    expect(jar.header()).toBe("a=3; b=2");
    jar.storeHeader("a=; Max-Age=0");
    jar.storeHeader("b=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
    expect(jar.header()).toBeUndefined();
  });
});
