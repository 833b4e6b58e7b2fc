import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./database.js";
import { defaultDatabaseUrl, maskDatabaseUrl, parseDatabaseUrl } from "./database-url.js";

describe("parseDatabaseUrl", () => {
  it.each([
    ["sqlite:db/test.sqlite", { dialect: "sqlite", file: "/app/db/test.sqlite" }],
    ["sqlite:///var/data/app.db", { dialect: "sqlite", file: "/var/data/app.db" }],
    ["sqlite::memory:", { dialect: "sqlite", file: ":memory:" }],
    ["postgres://u:p@127.0.0.1:5432/app", { dialect: "postgres" }],
    ["postgresql://db.internal/app", { dialect: "postgres" }],
    ["mysql://root@127.0.0.1:3306/app", { dialect: "mysql" }],
    ["mariadb://root@127.0.0.1/app", { dialect: "mysql" }],
  ])("reads %s", (url, expected) => {
    expect(parseDatabaseUrl(url, "/app")).toMatchObject(expected);
  });

  it.each([
    ["", /invalid DATABASE_URL "": expected sqlite:<file>/],
    ["db.sqlite", /invalid DATABASE_URL "db.sqlite": expected sqlite:<file>/],
    ["sqlite:", /the SQLite file name is missing/],
    [
      "oracle://u:secret@h/db",
      /invalid DATABASE_URL "oracle:\/\/u:\*\*\*\*@h\/db": unknown scheme "oracle:"/,
    ],
    ["postgres://u:secret@/app", /"postgres:\/\/u:\*\*\*\*@\/app": it is not a valid URL/],
    ["mysql://root@127.0.0.1:3306", /the database name is missing/],
  ])("refuses %j with a clear message", (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrow(message);
  });

  it("masks passwords and leaves password-less URLs alone", () => {
    expect(maskDatabaseUrl("postgres://app:s3cr:et@db:5432/app")).toBe(
      "postgres://app:****@db:5432/app",
    );
    expect(maskDatabaseUrl("mysql://root@db/app")).toBe("mysql://root@db/app");
    expect(defaultDatabaseUrl("production")).toBe("sqlite:db/production.sqlite");
  });
});

describe("openDatabase", () => {
  it("defaults to a SQLite file per environment under db/, creating the folder", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "wisent-open-"));
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      const db = await openDatabase(undefined, { cwd, env: "test" });
      expect(db.dialect).toBe("sqlite");
      expect(db.url).toBe("sqlite:db/test.sqlite");
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db.kysely);
      expect(rows[0]?.journal_mode).toBe("wal");
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db.kysely);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
      await db.close();
      expect(existsSync(join(cwd, "db", "test.sqlite"))).toBe(true);
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it("names the masked URL and the cause when a server cannot be reached", async () => {
    // Port 1 on the loopback interface: nothing listens there, so the connection is refused.
    await expect(openDatabase("postgres://app:hunter2@127.0.0.1:1/app")).rejects.toThrow(
      /^cannot connect to database postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/app: .*ECONNREFUSED/,
    );
    await expect(openDatabase("mysql://root:hunter2@127.0.0.1:1/app")).rejects.toThrow(
      /^cannot connect to database mysql:\/\/root:\*\*\*\*@127\.0\.0\.1:1\/app: .*ECONNREFUSED/,
    );
  });

  it("names the URL when a SQLite file cannot be created", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wisent-open-"));
    try {
      await writeFile(join(dir, "plain-file"), "");
      const url = `sqlite:${dir}/plain-file/app.sqlite`;
      await expect(openDatabase(url)).rejects.toThrow(`cannot open database ${url}: `);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a bad URL before connecting", async () => {
    await expect(openDatabase("ftp://x/y")).rejects.toThrow(/invalid DATABASE_URL "ftp:\/\/x\/y"/);
  });
});
