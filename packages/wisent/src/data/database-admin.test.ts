/**
 * `createDatabase` when several processes create one database at once (replicas starting
 * together, each running `wisent db prepare`): one creates it, the others find it, none fails.
 * Also: the missing database's error names `wisent db create`.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { isWisentError } from "../base/wisent-error.js";
import { openDatabase } from "./database.js";
import { createDatabase, dropDatabase } from "./database-admin.js";
import { availableDialects } from "./test-support/test-databases.js";

const SERVERS = {
  postgres: process.env.WISENT_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  mysql: process.env.WISENT_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test",
} as const;
const available = await availableDialects();
const made: string[] = [];

function urlOf(dialect: keyof typeof SERVERS, name: string): string {
  const url = new URL(SERVERS[dialect]);
  url.pathname = `/${name}`;
  return url.href;
}

afterAll(async () => {
  for (const url of made) await dropDatabase(url);
});

describe.each(["postgres", "mysql"] as const)("createDatabase on %s", (dialect) => {
  it.skipIf(!available[dialect])(
    "creates a database once when four callers ask at the same moment",
    async () => {
      const url = urlOf(dialect, `wisent_deploy_${randomBytes(5).toString("hex")}`);
      made.push(url);
      const results = await Promise.allSettled([1, 2, 3, 4].map(() => createDatabase(url)));
      const failed = results.filter((r) => r.status === "rejected");
      expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      const did = results.map((r) => (r as PromiseFulfilledResult<string>).value).sort();
      expect(did).toEqual(["created", "exists", "exists", "exists"]);
    },
  );

  it.skipIf(!available[dialect])(
    "says to run wisent db create (or db prepare) when the database is missing",
    async () => {
      const url = urlOf(dialect, `wisent_deploy_missing_${randomBytes(5).toString("hex")}`);
      const opened = await openDatabase(url, { poolSize: 1 }).catch((error: unknown) => error);
      expect(isWisentError(opened, "E_DATABASE_UNAVAILABLE")).toBe(true);
      expect((opened as Error).message).toMatch(
        /: create it with `wisent db create` \(or `wisent db prepare`, which also runs the migrations\)$/,
      );
    },
  );
});
