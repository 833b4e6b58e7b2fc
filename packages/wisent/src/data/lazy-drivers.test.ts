import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runModule } from "../app/test-support/run-module.js";

const index = fileURLToPath(new URL("../index.ts", import.meta.url));

/** Which server drivers a fresh process has loaded after `script` ran with the framework imported. */
function driversLoadedAfter(script: string): string[] {
  const code = `
    import { createRequire } from "node:module";
    const wisent = await import(${JSON.stringify(index)});
    ${script}
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const drivers = ["pg", "mysql2"].filter((d) => loaded.some((f) => f.includes("/node_modules/" + d + "/")));
    console.log(JSON.stringify(drivers));
  `;
  return JSON.parse(runModule(code).trim().split("\n").at(-1)!);
}

describe("database drivers", () => {
  it("are not loaded by a SQLite app", () => {
    const drivers = driversLoadedAfter(`
      const db = await wisent.openDatabase("sqlite::memory:");
      await db.close();
    `);
    expect(drivers).toEqual([]);
  });

  it("load when a URL needs them", () => {
    const drivers = driversLoadedAfter(`
      wisent.database("postgres://nobody@127.0.0.1:1/none");
      wisent.database("mysql://nobody@127.0.0.1:1/none");
    `);
    expect(drivers.sort()).toEqual(["mysql2", "pg"]);
  });
});
