import { envValue } from "../../config/env.js";
import { openDatabase } from "../../data/database.js";
import { maskDatabaseUrl } from "../../data/database-url.js";
import { openStorage } from "../../storage/app-storage.js";
import { DEFAULT_PRUNE_GRACE_MS, deleteOrphan, pruneStorage } from "../../storage/prune.js";
import { storageLocation } from "../../storage/storage-url.js";
import { appEnv, databaseUrl, envName } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent storage prune [--grace 1h] [--dry-run] [--force]",
  summary: [
    "Manages the app's stored files (STORAGE_URL: the storage/ folder, another folder, or an",
    "S3-compatible bucket).",
    "  prune  delete the stored files no row of the database names: what a crash between storing",
    "         an upload and the commit leaves. Only files older than the grace period go (a request",
    "         may still be saving a newer one); a cached variant goes with its file; keys Wisent",
    "         does not write are never touched. A key counts as named when any JSON or text column",
    "         of any table holds it.",
  ].join("\n"),
  options: [
    [
      "--grace D",
      "leave files younger than D alone: 90s, 30m, 2h, 7d (default 1h; 0 takes every orphan)",
    ],
    ["--dry-run", "list what would be deleted, delete nothing"],
    ["--force", "delete even when no row names any stored file (a wrong DATABASE_URL looks so)"],
  ],
  examples: [
    ["wisent storage prune --dry-run", "what would go"],
    ["wisent storage prune", "delete orphans older than an hour"],
    ["GO_ENV=production wisent storage prune --grace 1d", "in production, orphans of a day"],
  ],
};

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `2h`, `7d` (or `0`) in milliseconds; anything else is a usage error. */
export function parseGrace(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h|d)?$/.exec(text.trim());
  const amount = Number(match?.[1]);
  const unit = match?.[2];
  if (!match || (unit === undefined && amount !== 0)) {
    throw new UsageError(
      `--grace takes a duration such as 90s, 30m, 2h or 7d, got ${JSON.stringify(text)}`,
    );
  }
  return unit === undefined ? 0 : amount * (UNITS[unit] as number);
}

function age(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h` : `${Math.floor(hours / 24)}d`;
}

/** `wisent storage prune [--grace D] [--dry-run] [--force]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { grace: { type: "string" }, "dry-run": { type: "boolean" }, force: { type: "boolean" } },
      1,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const sub = positionals[0];
    if (sub !== "prune") {
      throw new UsageError(
        sub === undefined
          ? "which storage command? (use prune)"
          : `unknown storage command "${sub}": use prune`,
      );
    }
    const graceMs =
      typeof values.grace === "string" ? parseGrace(values.grace) : DEFAULT_PRUNE_GRACE_MS;
    const dryRun = values["dry-run"] === true;
    const env = appEnv(io);
    const url = databaseUrl(env, io.cwd);
    const storage = openStorage(storageLocation(envValue("STORAGE_URL", env), io.cwd, env));
    const db = await openDatabase(url, { cwd: io.cwd, env: envName(env) });
    const out = new Output(io);
    try {
      const now = new Date();
      // Looked at first without deleting: a database naming no file at all is checked below.
      const found = await pruneStorage(storage, db.kysely, { graceMs, dryRun: true, now });
      if (found.orphans.length > 0 && found.referenced === 0 && !dryRun && !values.force) {
        throw new UsageError(
          `no row of the database ${maskDatabaseUrl(url)} names a stored file, yet ${found.orphans.length} would be deleted: check DATABASE_URL and STORAGE_URL, or add --force`,
        );
      }
      for (const orphan of found.orphans) {
        const verb = dryRun ? "would delete" : "delete";
        out.line(
          `${verb}  ${orphan.key}  (${age(now.getTime() - orphan.lastModified.getTime())} old)`,
        );
        if (!dryRun) await deleteOrphan(storage, orphan.key);
      }
      const where =
        storage.location.driver === "fs"
          ? storage.location.root
          : `s3://${storage.location.bucket}`;
      out.line(
        `${where}: ${found.orphans.length} orphaned file${found.orphans.length === 1 ? "" : "s"} ${dryRun ? "would be deleted" : "deleted"}, ${found.kept} in use, ${found.recent} newer than ${typeof values.grace === "string" ? values.grace : "1h"} left alone` +
          (found.foreign > 0 ? `, ${found.foreign} not Wisent's left alone` : ""),
      );
      return 0;
    } finally {
      await db.close();
    }
  });
}
