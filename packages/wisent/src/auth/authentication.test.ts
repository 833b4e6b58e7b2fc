import type { Context } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../app/app.js";
import { createClient } from "../client/create-client.js";
import { session } from "../middleware/session/index.js";
import { Resource } from "../resources/resource.js";
import { testClient } from "../testing/test-client.js";
import { newAccessToken, tokenAuthentication } from "./access-token.js";
import { authentication } from "./authentication.js";
import { signIn, signOut } from "./current-user.js";
import { requireAuthentication } from "./require-authentication.js";
import { takeReturnPath } from "./return-path.js";

const ADA = { id: "ada" };
const SECRET = "a-test-secret-of-at-least-32-characters!";

class NotesResource extends Resource<"note_id"> {
  override list(c: Context) {
    return c.json({ user: c.currentUser()?.id ?? null });
  }
  override create(c: Context) {
    return c.json({ created: c.currentUser()?.id }, 201);
  }
}

/** A web app: sessions, a sign-in and sign-out route, a group and a resource behind the guard. */
function webApp() {
  const app = new App({ name: "notes" });
  app.use(session({ secret: SECRET }));
  app.use(authentication({ load: (_c, id) => (id === ADA.id ? ADA : undefined) }));
  app.get("/session/new", (c) => c.text("sign in"));
  app.post("/session", (c) => {
    const back = takeReturnPath(c);
    signIn(c, ADA);
    return c.text(back ? `in, back to ${back}` : "in");
  });
  app.delete("/session", (c) => {
    signOut(c);
    return c.text("out");
  });
  const admin = app.group("/admin");
  admin.use(requireAuthentication());
  admin.get("/stats", (c) => c.text(`stats for ${c.currentUser()?.id}`));
  app.resource("/notes", new NotesResource(), { authenticate: ["create"] });
  return app;
}

const html = { headers: { accept: "text/html" } };

describe("requireAuthentication and app.resource's authenticate", () => {
  it("sends an HTML request to sign in, its path kept in the session, and lets it in once signed in", async () => {
    const client = testClient(webApp(), { sessionSecret: SECRET });
    const refused = await client.get("/admin/stats?range=week", html);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/session/new");
    expect((await client.session()).return_to).toBe("/admin/stats?range=week");
    const back = await client.post("/session", { csrf: false });
    expect(await back.text()).toBe("in, back to /admin/stats?range=week");
    expect((await client.session()).return_to).toBeUndefined();
    const allowed = await client.get("/admin/stats", html);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe("stats for ada");
  });

  it("answers JSON and XML requests 401, with no Bearer challenge from a cookie-only app", async () => {
    for (const accept of ["application/json", "application/xml"]) {
      const res = await testClient(webApp()).get("/admin/stats", { headers: { accept } });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBeNull();
    }
  });

  it("secures only the operations listed", async () => {
    const client = testClient(webApp(), {
      sessionSecret: SECRET,
      headers: { accept: "application/json" },
    });
    expect((await client.get("/notes")).status).toBe(200);
    expect((await client.post("/notes", { json: {} })).status).toBe(401);
  });

  it("renews the session at sign-in and sign-out: an earlier cookie is not signed in", async () => {
    const client = testClient(webApp(), { sessionSecret: SECRET });
    await client.post("/session", { csrf: false });
    const signedIn = client.cookies.get(client.sessionCookieName) ?? "";
    const idIn = (await client.session())._id;
    await client.delete("/session", { csrf: false });
    expect((await client.session())._id).not.toBe(idIn);
    expect((await client.session()).user_id).toBeUndefined();
    // The signed-in cookie was replaced; a copy of the one from before sign-in holds no user.
    const other = testClient(webApp(), { sessionSecret: SECRET });
    await other.get("/session/new");
    const before = other.cookies.get(other.sessionCookieName) ?? "";
    await other.post("/session", { csrf: false });
    const thief = testClient(webApp(), { sessionSecret: SECRET });
    thief.cookies.set(thief.sessionCookieName, before);
    expect((await thief.get("/admin/stats", html)).status).toBe(303);
    expect(signedIn).not.toBe("");
  });

  it("signs out a session whose user is gone", async () => {
    let exists = true;
    const app = new App({ name: "notes" });
    app.use(session({ secret: SECRET }));
    app.use(authentication({ load: (_c, id) => (exists && id === ADA.id ? ADA : undefined) }));
    app.post("/session", (c) => {
      signIn(c, ADA);
      return c.text("in");
    });
    app.get("/me", (c) => c.text(c.currentUser()?.id ?? "nobody"));
    const client = testClient(app, { sessionSecret: SECRET });
    await client.post("/session", { csrf: false });
    expect(await (await client.get("/me")).text()).toBe("ada");
    exists = false;
    expect(await (await client.get("/me")).text()).toBe("nobody");
    expect((await client.session()).user_id).toBeUndefined();
  });

  it("fails loudly when no authentication middleware ran", async () => {
    const app = new App({ name: "bare" });
    const guarded = app.group("/guarded");
    guarded.use(requireAuthentication());
    guarded.get("/x", (c) => c.text("x"));
    const res = await testClient(app).get("/guarded/x", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(500);
  });

  it("marks the secured operations in the OpenAPI document (session cookie)", () => {
    const doc = webApp().openApiDocument() as unknown as {
      paths: Record<string, Record<string, { security?: unknown; responses: object }>>;
      components: { securitySchemes?: Record<string, unknown> };
    };
    expect(doc.paths["/notes"]!.post!.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths["/notes"]!.post!.responses).toHaveProperty("401");
    // Public: said so, as Redocly's security-defined rule asks.
    expect(doc.paths["/notes"]!.get!.security).toEqual([]);
    expect(doc.components.securitySchemes).toEqual({
      sessionCookie: expect.objectContaining({
        type: "apiKey",
        in: "cookie",
        name: "_notes_session",
      }),
    });
  });
});

describe("tokenAuthentication (API apps)", () => {
  const issued = newAccessToken();
  function apiApp() {
    const app = new App({ name: "api", api: true });
    app.use(
      tokenAuthentication({ load: (_c, digest) => (digest === issued.digest ? ADA : undefined) }),
    );
    app.resource("/notes", new NotesResource(), { authenticate: true });
    return app;
  }

  it("stores only a SHA-256 of a random token", () => {
    expect(issued.token).toMatch(/^[\w-]{43}$/);
    expect(issued.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.digest).not.toContain(issued.token);
  });

  it.each([
    ["no header", undefined, 401],
    ["a wrong token", "Bearer nope", 401],
    ["another scheme", `Basic ${issued.token}`, 401],
    ["the token", `Bearer ${issued.token}`, 200],
  ])("answers %s with %i", async (_name, authorization, status) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (authorization) headers.authorization = authorization;
    const res = await testClient(apiApp()).get("/notes", { headers });
    expect(res.status).toBe(status);
    if (status === 200) expect(await res.json()).toEqual({ user: "ada" });
    else expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("is sent by the typed client given a token", async () => {
    const app = apiApp();
    const document = app.openApiDocument();
    type Notes = { notes: { list(): Promise<{ status: number }> } };
    const client = (token?: string) =>
      createClient<unknown>({ fetch: app.fetch, document, ...(token && { token }) }) as Notes;
    expect((await client(issued.token).notes.list()).status).toBe(200);
    expect((await client().notes.list()).status).toBe(401);
  });

  it("declares the bearer scheme in the OpenAPI document", () => {
    const doc = apiApp().openApiDocument() as unknown as {
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
    };
    expect(doc.paths["/notes"]!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes?.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });
});

describe("sessions that end", () => {
  afterEach(() => vi.useRealTimers());

  /** A user row whose session generation the test raises, as the generated sign-out does. */
  function appOf(options: { lifetime?: number; idleTimeout?: number } = {}) {
    const row = { id: "ada", session_generation: 0 };
    const loads: string[] = [];
    const app = new App({ name: "notes" });
    app.use(session({ secret: SECRET }));
    app.use(
      authentication({
        load: (_c, id) => {
          loads.push(id);
          return id === row.id ? { ...row } : undefined;
        },
        ...options,
      }),
    );
    app.post("/session", (c) => {
      signIn(c, { ...row });
      return c.text("in");
    });
    app.get("/me", (c) => c.text(c.currentUser()?.id ?? "nobody"));
    return { app, row, loads };
  }

  it("signs out every session of a user whose session generation changed", async () => {
    const { app, row } = appOf();
    const phone = testClient(app, { sessionSecret: SECRET });
    const laptop = testClient(app, { sessionSecret: SECRET });
    await phone.post("/session", { csrf: false });
    await laptop.post("/session", { csrf: false });
    const copied = phone.cookies.get(phone.sessionCookieName)!;
    expect(await (await laptop.get("/me")).text()).toBe("ada");
    row.session_generation++; // sign-out or a password change, anywhere
    expect(await (await phone.get("/me")).text()).toBe("nobody");
    expect(await (await laptop.get("/me")).text()).toBe("nobody");
    const thief = testClient(app, { sessionSecret: SECRET });
    thief.cookies.set(thief.sessionCookieName, copied);
    expect(await (await thief.get("/me")).text()).toBe("nobody");
    // Signing in again works, under the new generation.
    await phone.post("/session", { csrf: false });
    expect(await (await phone.get("/me")).text()).toBe("ada");
  });

  it("ends a session after its lifetime (2 weeks by default), however active", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { app } = appOf();
    const client = testClient(app, { sessionSecret: SECRET });
    await client.post("/session", { csrf: false });
    vi.setSystemTime(Date.now() + 13 * 24 * 3600 * 1000);
    expect(await (await client.get("/me")).text()).toBe("ada");
    vi.setSystemTime(Date.now() + 2 * 24 * 3600 * 1000);
    expect(await (await client.get("/me")).text()).toBe("nobody");
  });

  it("ends an unused session after the idle timeout, and keeps a used one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { app } = appOf({ lifetime: 24 * 3600, idleTimeout: 600 });
    const client = testClient(app, { sessionSecret: SECRET });
    await client.post("/session", { csrf: false });
    for (let i = 0; i < 5; i++) {
      vi.setSystemTime(Date.now() + 500 * 1000);
      expect(await (await client.get("/me")).text()).toBe("ada");
    }
    vi.setSystemTime(Date.now() + 601 * 1000);
    expect(await (await client.get("/me")).text()).toBe("nobody");
  });

  it("costs no query for a visitor who is not signed in, nor for an expired session", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { app, loads } = appOf({ lifetime: 60 });
    const client = testClient(app, { sessionSecret: SECRET });
    expect(await (await client.get("/me")).text()).toBe("nobody");
    expect(loads).toEqual([]);
    await client.post("/session", { csrf: false });
    vi.setSystemTime(Date.now() + 61 * 1000);
    expect(await (await client.get("/me")).text()).toBe("nobody");
    expect(loads).toEqual([]);
  });
});
