/**
 * `wisent storage prune` and `migrate-keys` in-process, in an app folder ("shop") with a SQLite
 * database per environment and its files on the local disk, under shop/<environment>/ (the S3
 * path is pruneStorage's and migrateKeys's, tested in src/storage/).
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
/** The storage folder, shared by every environment. */
let root: string;
/** Development's files in it. */
let storage: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "wisent-storage-cli-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "shop" }));
  root = join(dir, "files");
  storage = join(root, "shop", "development");
  mkdirSync(storage, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `wisent ...` in the app's folder, in development unless `GO_ENV` says otherwise. */
async function wisent(...argv: string[]) {
  return wisentIn("development", ...argv);
}

async function wisentIn(env: string, ...argv: string[]) {
  const { io, stdout, stderr } = memoryIO({
    cwd: dir,
    env: {
      GO_ENV: env,
      DATABASE_URL: `sqlite:${join(dir, `${env}.sqlite`)}`,
      STORAGE_URL: "file:files",
    },
  });
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

/** The images table of an environment's database, with a row naming each of `keys`. */
async function images(...keys: string[]): Promise<void> {
  return imagesIn("development", ...keys);
}

async function imagesIn(env: string, ...keys: string[]): Promise<void> {
  const db = await openDatabase(`sqlite:${join(dir, `${env}.sqlite`)}`);
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

/** A stored file, `hoursOld` hours old, in `folder` (development's). */
function stored(hoursOld: number, folder = storage): string {
  const key = `${randomUUID()}.png`;
  const path = join(folder, key);
  mkdirSync(folder, { recursive: true });
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
    expect((await wisent("storage")).stderr).toContain(
      "which storage command? (use prune or migrate-keys)",
    );
    expect((await wisent("storage", "clean")).stderr).toContain('unknown storage command "clean"');
    const help = await wisent("storage", "--help");
    expect(help.stdout).toContain("wisent storage prune [--grace 1h] [--dry-run] [--force]");
    const mixed = await wisent("storage", "migrate-keys", "--force");
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--grace and --force are prune's options");
  });

  it("prunes only its own environment's folder: production's files survive a run without GO_ENV", async () => {
    const production = join(root, "shop", "production");
    const inUse = stored(5, production);
    const productionOrphan = stored(5, production);
    const developmentRow = stored(5);
    const developmentOrphan = stored(5);
    await imagesIn("production", inUse);
    await images(developmentRow);
    const done = await wisent("storage", "prune");
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`delete  ${developmentOrphan}`);
    expect(done.stdout).toContain(`${storage}: 1 orphaned file deleted, 1 in use`);
    expect(readdirSync(storage)).toEqual([developmentRow]);
    expect(readdirSync(production).sort()).toEqual([inUse, productionOrphan].sort());
    const inProduction = await wisentIn("production", "storage", "prune");
    expect(inProduction.stdout).toContain(`delete  ${productionOrphan}`);
    expect(readdirSync(production)).toEqual([inUse]);
    expect(readdirSync(storage)).toEqual([developmentRow]);
  });

  it("refuses a folder whose files it cannot attribute: no app name", async () => {
    const orphan = stored(3);
    await images();
    writeFileSync(join(dir, "package.json"), "{}");
    const refused = await wisent("storage", "prune", "--force");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "stored files are kept under <app>/<environment>/, and " +
        `${join(dir, "package.json")} has no "name": add one`,
    );
    expect(readdirSync(storage)).toEqual([orphan]);
  });

  it("moves each environment's files from the root into its folder with migrate-keys", async () => {
    const forProduction = stored(5, root);
    const forDevelopment = stored(5, root);
    const forNobody = stored(5, root);
    mkdirSync(join(root, "variants", forProduction), { recursive: true });
    writeFileSync(join(root, "variants", forProduction, "thumb.webp"), "webp");
    await imagesIn("production", forProduction);
    await images(forDevelopment);

    const pruned = await wisent("storage", "prune", "--grace", "0");
    expect(pruned.stdout).toContain(
      "4 files at the storage's root, stored before keys carried the app and environment, left alone: wisent storage migrate-keys moves this environment's own",
    );
    expect(readdirSync(root).sort()).toEqual(
      [forProduction, forDevelopment, forNobody, "shop", "variants"].sort(),
    );

    const dry = await wisentIn("production", "storage", "migrate-keys", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would move  ${forProduction}`);
    expect(dry.stdout).toContain("1 file would be moved from the storage's root");
    expect(readdirSync(root)).toContain(forProduction);

    const moved = await wisentIn("production", "storage", "migrate-keys");
    expect(moved.stdout).toContain(`move  ${forProduction}`);
    expect(moved.stdout).toContain(
      `${join(root, "shop", "production")}: 1 file moved from the storage's root, 0 copied from another environment, 0 already in place, 0 missing; 2 files at the root not named here left alone`,
    );
    const production = join(root, "shop", "production");
    expect(readdirSync(production).sort()).toEqual([forProduction, "variants"].sort());
    expect(readdirSync(join(production, "variants", forProduction))).toEqual(["thumb.webp"]);
    expect((await wisent("storage", "migrate-keys")).stdout).toContain(`move  ${forDevelopment}`);
    expect(readdirSync(storage)).toEqual([forDevelopment]);
    // Again: nothing to move.
    const again = await wisentIn("production", "storage", "migrate-keys");
    expect(again.stdout).toContain(
      "0 files moved from the storage's root, 0 copied from another environment, 1 already in place",
    );
    // What no environment named stays at the root: prune never touches it.
    expect(readdirSync(root).sort()).toEqual([forNobody, "shop", "variants"].sort());
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
