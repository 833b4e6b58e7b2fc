import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { database } from "../data/database.js";
import { App } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "wisent-app-database-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quiet = { port: 0, host: "127.0.0.1", handleSignals: false } as const;
const answers = (db: ReturnType<typeof database>) =>
  sql`select 1 as one`.execute(db.kysely).then(
    () => true,
    () => false,
  );

describe("App({ database })", () => {
  it("checks the database before serving and closes it after the shutdown hooks", async () => {
    const db = database(`sqlite:${join(dir, "app.sqlite")}`);
    const app = new App({ name: "owned", env: "test", database: db });
    app.get("/", (c) => c.text("up"));
    const seen: boolean[] = [];
    // A hook of the app's own still finds the database open.
    app.onShutdown(async () => {
      seen.push(await answers(db));
    });
    const server = await app.listen(quiet);
    expect(await (await fetch(server.url)).text()).toBe("up");
    await server.close();
    expect(seen).toEqual([true]);
    expect(await answers(db)).toBe(false);
  });

  it("refuses to serve, naming the database, when it does not answer", async () => {
    // A file where its folder should be: SQLite cannot open it.
    writeFileSync(join(dir, "not-a-folder"), "");
    const db = database(`sqlite:${join(dir, "not-a-folder", "app.sqlite")}`);
    const app = new App({ name: "unreachable", env: "test", database: db });
    await expect(app.listen(quiet)).rejects.toMatchObject({ code: "E_DATABASE_UNAVAILABLE" });
  });

  it("closes it when the server cannot listen", async () => {
    const db = database(`sqlite:${join(dir, "taken.sqlite")}`);
    const first = await new App({ name: "first", env: "test" }).listen(quiet);
    const app = new App({ name: "second", env: "test", database: db });
    try {
      await expect(app.listen({ ...quiet, port: first.port })).rejects.toMatchObject({
        code: "E_PORT_IN_USE",
      });
      expect(await answers(db)).toBe(false);
    } finally {
      await first.close();
    }
  });

  it("leaves a database it was not given alone", async () => {
    const db = database(`sqlite:${join(dir, "other.sqlite")}`);
    const server = await new App({ name: "other", env: "test" }).listen(quiet);
    expect(await answers(db)).toBe(true);
    await server.close();
    expect(await answers(db)).toBe(true);
    await db.close();
  });
});
