/**
 * `wisent storage prune` in-process, in an app folder with a SQLite database and its files on
 * the local disk (the S3 path is pruneStorage's, tested in src/storage/prune.test.ts).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTable } from "../../data/create-table.js";
import { openDatabase } from "../../data/database.js";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { parseGrace } from "./storage.js";

let dir: string;
let storage: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "wisent-storage-cli-"));
  storage = join(dir, "files");
  mkdirSync(storage);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function wisent(...argv: string[]) {
  const { io, stdout, stderr } = memoryIO({
    cwd: dir,
    env: { DATABASE_URL: `sqlite:${join(dir, "app.sqlite")}`, STORAGE_URL: "file:files" },
  });
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

/** The images table, with a row naming each of `keys`. */
async function images(...keys: string[]): Promise<void> {
  const db = await openDatabase(`sqlite:${join(dir, "app.sqlite")}`);
  await createTable(db.kysely, "images", (t) => {
    t.uuid("id").primary();
    t.json("file").nullable();
  });
  for (const key of keys) {
    await db.kysely
      .insertInto("images" as never)
      .values({ id: randomUUID(), file: JSON.stringify({ key, name: "a.png" }) } as never)
      .execute();
  }
  await db.close();
}

/** A stored file, `hoursOld` hours old. */
function stored(hoursOld: number): string {
  const key = `${randomUUID()}.png`;
  const path = join(storage, key);
  writeFileSync(path, "png");
  const time = new Date(Date.now() - hoursOld * 3_600_000);
  utimesSync(path, time, time);
  return key;
}

describe("wisent storage prune", () => {
  it("lists the orphans older than an hour with --dry-run, then deletes them", async () => {
    const named = stored(5);
    const orphan = stored(2);
    const young = stored(0);
    writeFileSync(join(storage, ".gitkeep"), "");
    await images(named);

    const dry = await wisent("storage", "prune", "--dry-run");
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would delete  ${orphan}  (2h old)`);
    expect(dry.stdout).toContain(
      "1 orphaned file would be deleted, 1 in use, 1 newer than 1h left alone, 1 not Wisent's left alone",
    );
    expect(readdirSync(storage)).toHaveLength(4);

    const done = await wisent("storage", "prune");
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`delete  ${orphan}`);
    expect(readdirSync(storage).sort()).toEqual([".gitkeep", named, young].sort());

    const all = await wisent("storage", "prune", "--grace", "0");
    expect(all.stdout).toContain(`delete  ${young}`);
    expect(readdirSync(storage).sort()).toEqual([".gitkeep", named].sort());
  });

  it("refuses when no row names any file (a wrong DATABASE_URL) unless --force", async () => {
    const orphan = stored(3);
    await images();
    const refused = await wisent("storage", "prune");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("no row of the database");
    expect(refused.stderr).toContain("yet 1 would be deleted: check DATABASE_URL");
    expect(readdirSync(storage)).toEqual([orphan]);
    const forced = await wisent("storage", "prune", "--force");
    expect(forced.code).toBe(0);
    expect(readdirSync(storage)).toEqual([]);
  });

  it("answers a usage error for a bad duration or command", async () => {
    const bad = await wisent("storage", "prune", "--grace", "soon");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--grace takes a duration such as 90s, 30m, 2h or 7d, got "soon"');
    expect((await wisent("storage")).stderr).toContain("which storage command? (use prune)");
    expect((await wisent("storage", "clean")).stderr).toContain('unknown storage command "clean"');
    const help = await wisent("storage", "--help");
    expect(help.stdout).toContain("wisent storage prune [--grace 1h] [--dry-run] [--force]");
  });

  it("reads durations", () => {
    expect(parseGrace("90s")).toBe(90_000);
    expect(parseGrace("30m")).toBe(1_800_000);
    expect(parseGrace("2h")).toBe(7_200_000);
    expect(parseGrace("7d")).toBe(604_800_000);
    expect(parseGrace("0")).toBe(0);
    expect(() => parseGrace("5")).toThrow(/--grace/);
  });
});
