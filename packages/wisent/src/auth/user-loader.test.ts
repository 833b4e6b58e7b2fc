import { sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { isWisentError } from "../base/wisent-error.js";
import type { AnyDB } from "../data/any-db.js";
import { createTestDatabase, type TestDatabase } from "../data/test-support/test-databases.js";
import { session } from "../middleware/session/index.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { testClient } from "../testing/test-client.js";
import { newAccessToken, tokenAuthentication } from "./access-token.js";
import { authentication } from "./authentication.js";
import { signIn } from "./current-user.js";

const ADA = { id: "ada" };
const SECRET = "a-test-secret-of-at-least-32-characters!";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("sqlite");
});
afterAll(async () => {
  await t.drop();
});

/** The databases `find` was given, and an app whose POST says whether its transaction was one. */
function appFinding(middleware: (found: Transaction<AnyDB>[]) => Parameters<App["use"]>[0]) {
  const found: Transaction<AnyDB>[] = [];
  const app = new App({ name: "finder" });
  app.use(session({ secret: SECRET }));
  app.use(transaction(t.db));
  app.use(middleware(found));
  app.post("/session", (c) => {
    signIn(c, ADA);
    return c.text("in");
  });
  app.post("/notes", async (c) => {
    const tx = await c.tx();
    return c.json({ user: c.currentUser()?.id ?? null, sameTransaction: found.includes(tx) });
  });
  return { app, found };
}

async function adaOf(db: Transaction<AnyDB>, key: string) {
  await sql`select 1`.execute(db);
  return key === ADA.id ? ADA : undefined;
}

describe("authentication({ find })", () => {
  it("reads the session's user in a transaction of its own, not the one the request then writes in", async () => {
    const { app, found } = appFinding((seen) =>
      authentication({
        find: (db, id) => {
          seen.push(db);
          return adaOf(db, id);
        },
      }),
    );
    const client = testClient(app, { sessionSecret: SECRET });
    await client.post("/session", { csrf: false });
    const res = await client.post("/notes", { csrf: false, json: {} });
    expect(await res.json()).toEqual({ user: "ada", sameTransaction: false });
    expect(found.length).toBeGreaterThan(0);
  });

  it("takes find or load, one of them", () => {
    const both = () =>
      authentication({ find: adaOf, load: () => ADA } as unknown as Parameters<
        typeof authentication
      >[0]);
    expect(() => both()).toThrow(/find\(db, key\) .* or load\(c, key\), one of them/);
    let thrown: unknown;
    try {
      authentication({} as Parameters<typeof authentication>[0]);
    } catch (error) {
      thrown = error;
    }
    expect(isWisentError(thrown, "E_APP_MISCONFIGURED")).toBe(true);
  });
});

describe("tokenAuthentication({ find })", () => {
  it("reads the token's user in a transaction of its own, not the one the request then writes in", async () => {
    const token = newAccessToken();
    const { app } = appFinding((seen) =>
      tokenAuthentication({
        find: (db, digest) => {
          seen.push(db);
          return adaOf(db, digest === token.digest ? ADA.id : "");
        },
      }),
    );
    const res = await testClient(app).post("/notes", {
      csrf: false,
      json: {},
      headers: { authorization: `Bearer ${token.token}` },
    });
    expect(await res.json()).toEqual({ user: "ada", sameTransaction: false });
  });
});
