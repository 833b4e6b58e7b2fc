/**
 * The engine an app recorded (package.json "wisent": { "database" }) and the fallback it rules
 * out: a production-like environment of a PostgreSQL or MySQL app without DATABASE_URL refuses
 * to run, naming the variable, instead of creating db/<env>.sqlite.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isWisentError } from "../base/wisent-error.js";
import { appEnvironment } from "../data/app-database-url.js";
import { database } from "../data/database.js";
import { recordedDatabaseEngine } from "./app-manifest.js";
import { databaseUrlSetting, fallbackDatabaseUrl } from "./settings.js";

const root = mkdtempSync(join(tmpdir(), "wisent-engine-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An app folder whose package.json records `database` (none when undefined). */
function appOn(name: string, database?: unknown): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const manifest = database === undefined ? { name } : { name, wisent: { database } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  return dir;
}

const postgresApp = appOn("readinglist", "postgres");
const mysqlApp = appOn("inventory", "mysql");
const sqliteApp = appOn("blog", "sqlite");
const olderApp = appOn("shop");

describe("recordedDatabaseEngine", () => {
  it("reads package.json's wisent.database, none when absent", () => {
    expect(recordedDatabaseEngine(postgresApp)).toBe("postgres");
    expect(recordedDatabaseEngine(sqliteApp)).toBe("sqlite");
    expect(recordedDatabaseEngine(olderApp)).toBeUndefined();
    expect(recordedDatabaseEngine(join(root, "nowhere"))).toBeUndefined();
  });

  it("refuses an engine it does not know, naming the file", () => {
    const odd = appOn("odd", "oracle");
    expect(() => recordedDatabaseEngine(odd)).toThrow(
      `${join(odd, "package.json")}: "wisent": { "database": "oracle" } is not a database Wisent knows: use "sqlite", "postgres" or "mysql"`,
    );
  });
});

describe("the fallback without DATABASE_URL", () => {
  it.each([
    [postgresApp, "production", "postgres", "postgres://user:password@host:5432/name"],
    [postgresApp, "staging", "postgres", "postgres://user:password@host:5432/name"],
    [mysqlApp, "production", "mysql", "mysql://user:password@host:3306/name"],
  ])("%s in %s refuses SQLite, naming DATABASE_URL", (dir, envName, engine, example) => {
    let thrown: unknown;
    try {
      fallbackDatabaseUrl(envName, dir);
    } catch (error) {
      thrown = error;
    }
    expect(isWisentError(thrown, "E_CONFIG_INVALID")).toBe(true);
    expect((thrown as Error).message).toBe(
      `DATABASE_URL is not set: this app runs on ${engine} (package.json "wisent": { "database": "${engine}" }), and the ${envName} environment does not fall back to SQLite. Set DATABASE_URL=${example} in the environment`,
    );
  });

  it.each([
    [postgresApp, "development"],
    [postgresApp, "test"],
    [sqliteApp, "production"],
    [olderApp, "production"],
  ])("%s in %s is the environment's SQLite file", (dir, envName) => {
    expect(fallbackDatabaseUrl(envName, dir)).toBe(`sqlite:db/${envName}.sqlite`);
  });

  it("a DATABASE_URL that is set is used as given", () => {
    const url = "postgres://app@db:5432/readinglist";
    expect(databaseUrlSetting({ GO_ENV: "production", DATABASE_URL: url }, postgresApp)).toBe(url);
  });

  it("database() of a PostgreSQL app in production without DATABASE_URL throws and creates no file", () => {
    expect(() => database(undefined, { env: "production", cwd: postgresApp })).toThrow(
      /^DATABASE_URL is not set: this app runs on postgres/,
    );
    expect(existsSync(join(postgresApp, "db"))).toBe(false);
  });

  it("appEnvironment leaves DATABASE_URL unset in production, for the opener to refuse", () => {
    expect(appEnvironment(postgresApp, { GO_ENV: "production" }).DATABASE_URL).toBeUndefined();
    expect(appEnvironment(postgresApp, { GO_ENV: "development" }).DATABASE_URL).toBe(
      "sqlite:db/development.sqlite",
    );
  });
});
