import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../app/app.js";
import { accessTokenDigest, newAccessToken, tokenAuthentication } from "../auth/access-token.js";
import { authentication } from "../auth/authentication.js";
import { TEST_SIGN_IN_PATH } from "../auth/test-sign-in.js";
import { csrf } from "../middleware/csrf/csrf.js";
import { session } from "../middleware/session/index.js";
import { signIn, signOut } from "./sign-in.js";
import { type FetchApp, testClient } from "./test-client.js";

const SECRET = "a-test-secret-of-at-least-32-characters!";
const USERS = new Map([
  ["ada", { id: "ada" }],
  ["bob", { id: "bob" }],
]);
const json = { headers: { accept: "application/json" } };

/** A web app: sessions, `authentication()`, one route that says who is signed in. */
function webApp() {
  const app = new App({ name: "notes" });
  app.use(session({ secret: SECRET }));
  app.use(csrf());
  app.use(authentication({ load: (_c, id) => USERS.get(id) }));
  app.get("/me", (c) => c.json({ user: c.currentUser()?.id ?? null }));
  return app;
}

/** An API app: bearer tokens stored as digests, issued by `issue`. */
function apiApp() {
  const tokens = new Map<string, string>();
  const app = new App({ name: "notes" });
  app.use(
    tokenAuthentication({
      load: (_c, digest) => USERS.get(tokens.get(digest) ?? ""),
      issue: (_c, userId) => {
        if (!USERS.has(userId)) return undefined;
        const { token, digest } = newAccessToken();
        tokens.set(digest, userId);
        return token;
      },
    }),
  );
  app.get("/me", (c) => c.json({ user: c.currentUser()?.id ?? null }));
  return { app, tokens };
}

async function who(client: ReturnType<typeof testClient>) {
  return ((await (await client.get("/me", json)).json()) as { user: string | null }).user;
}

/** A client whose requests go over a socket to the app, listening on a random port. */
async function overSocket(app: App) {
  const server = await app.listen({ port: 0, handleSignals: false });
  const remote: FetchApp = {
    name: app.name,
    fetch: (request) => fetch(request, { redirect: "manual" }),
  };
  return { client: testClient(remote, { baseUrl: server.url, sessionSecret: SECRET }), server };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("signIn and signOut of wisent/testing", () => {
  it("signs a session client in as each user through the app's own signIn, and out again", async () => {
    const client = testClient(webApp(), { sessionSecret: SECRET });
    expect(await who(client)).toBeNull();
    await signIn(client, { id: "ada" });
    expect(await who(client)).toBe("ada");
    expect((await client.session()).user_id).toBe("ada");
    await signIn(client, { id: "bob" });
    expect(await who(client)).toBe("bob");
    await signOut(client);
    expect(await who(client)).toBeNull();
  });

  it("gives an API client a token of its own, and drops it at sign-out", async () => {
    const { app, tokens } = apiApp();
    const client = testClient(app, { sessionSecret: SECRET });
    await signIn(client, { id: "bob" });
    expect(await who(client)).toBe("bob");
    const token = client.headers.authorization?.replace(/^Bearer /, "") ?? "";
    expect(tokens.get(accessTokenDigest(token))).toBe("bob");
    await signOut(client);
    expect(client.headers.authorization).toBeUndefined();
    expect(await who(client)).toBeNull();
  });

  it("works over a socket, against a running server", async () => {
    for (const app of [webApp(), apiApp().app]) {
      const { client, server } = await overSocket(app);
      try {
        await signIn(client, { id: "ada" });
        expect(await who(client)).toBe("ada");
        await signOut(client);
        expect(await who(client)).toBeNull();
      } finally {
        await server.close();
      }
    }
  });

  it("refuses an unknown user with the app's 404", async () => {
    for (const app of [webApp(), apiApp().app]) {
      const client = testClient(app, { sessionSecret: SECRET });
      await expect(signIn(client, { id: "nobody" })).rejects.toThrow(
        /answered 404.*no user with id nobody/,
      );
    }
  });

  it("says what is missing when the token app cannot issue tokens", async () => {
    const app = new App({ name: "notes" });
    app.use(tokenAuthentication({ load: () => undefined }));
    await expect(signIn(testClient(app, { sessionSecret: SECRET }), { id: "ada" })).rejects.toThrow(
      /501.*no issue\(c, userId\) option/,
    );
  });

  it("is an unknown path outside the test environment: nobody signs in", async () => {
    for (const env of ["production", "development"]) {
      vi.stubEnv("GO_ENV", env);
      for (const app of [webApp(), apiApp().app]) {
        const client = testClient(app, { sessionSecret: SECRET });
        const res = await client.post(TEST_SIGN_IN_PATH, { query: { id: "ada" }, ...json });
        expect(res.status).toBe(404);
        await expect(signIn(client, { id: "ada" })).rejects.toThrow(/answered 404.*GO_ENV=test/);
        expect(await who(client)).toBeNull();
      }
    }
  });
});

describe("TestClient.fetch", () => {
  it("makes the typed client's requests as the signed-in user, CSRF token included", async () => {
    const app = webApp();
    app.post("/echo", async (c) =>
      c.json({ user: c.currentUser()?.id ?? null, body: await c.req.json() }),
    );
    const client = testClient(app, { sessionSecret: SECRET });
    await signIn(client, { id: "ada" });
    const res = await client.fetch(
      new Request("http://localhost/echo", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ a: 1 }),
      }),
    );
    expect(await res.json()).toEqual({ user: "ada", body: { a: 1 } });
    // The same request without the token is refused: the header above was the client's doing.
    const bare = await app.fetch(
      new Request("http://localhost/echo", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: client.cookies.header()! },
        body: JSON.stringify({ a: 1 }),
      }),
    );
    expect(bare.status).toBe(403);
  });
});
