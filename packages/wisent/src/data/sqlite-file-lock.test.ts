/**
 * The SQLite file lock `wisent db prepare` holds: one holder at a time, in one process or
 * across processes, and released by the system when its holder dies.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteLockFile, withSqliteFileLock } from "./sqlite-file-lock.js";

const dir = mkdtempSync(join(tmpdir(), "wisent-sqlite-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("withSqliteFileLock", () => {
  it("runs one holder at a time: the second starts only after the first has finished", async () => {
    const file = join(dir, "one-process.sqlite");
    const events: string[] = [];
    const first = gate();
    const firstIn = gate();
    const a = withSqliteFileLock(file, async () => {
      events.push("a in");
      firstIn.open();
      await first.opened;
      events.push("a out");
    });
    await firstIn.opened;
    const b = withSqliteFileLock(file, async () => {
      events.push("b in");
    });
    // b is waiting (it polls): a has the lock until it is let go.
    await new Promise((resolve) => setImmediate(resolve));
    events.push("a released");
    first.open();
    await Promise.all([a, b]);
    expect(events).toEqual(["a in", "a released", "a out", "b in"]);
  });

  it("waits for a holder in another process, and gets the lock when that process is killed", async () => {
    const file = join(dir, "two-processes.sqlite");
    const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
    // Another process holds the lock the way withSqliteFileLock does, and never lets it go.
    const holder: ChildProcess = spawn(
      process.execPath,
      [
        "-e",
        `const S = require(${JSON.stringify(sqlite)}); const l = new S(${JSON.stringify(sqliteLockFile(file))}); l.exec("BEGIN EXCLUSIVE"); console.log("held"); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
    let got = false;
    const waiting = withSqliteFileLock(file, async () => {
      got = true;
    });
    const gone = new Promise((resolve) => holder.once("exit", resolve));
    expect(got).toBe(false);
    holder.kill("SIGKILL");
    await gone;
    await waiting;
    expect(got).toBe(true);
  });

  it("names the lock file and its folder when it cannot open it", async () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "");
    const file = join(blocker, "production.sqlite");
    await expect(withSqliteFileLock(file, async () => {})).rejects.toThrow(
      `cannot open ${sqliteLockFile(file)} (EEXIST): the folder ${blocker} must exist and be writable by this process's user, or DATABASE_URL name another database`,
    );
  });

  it("gives up after its wait, naming the lock file", async () => {
    const file = join(dir, "held.sqlite");
    const held = gate();
    const inside = gate();
    const holder = withSqliteFileLock(file, async () => {
      inside.open();
      await held.opened;
    });
    await inside.opened;
    await expect(withSqliteFileLock(file, async () => {}, { waitMs: 0 })).rejects.toThrow(
      `another process still holds ${sqliteLockFile(file)} (it is preparing ${file})`,
    );
    held.open();
    await holder;
  });
});
