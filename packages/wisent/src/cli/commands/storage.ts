import { storageUrlSetting } from "../../config/settings.js";
import { openDatabase } from "../../data/database.js";
import { maskDatabaseUrl } from "../../data/database-url.js";
import { type AppStorage, openStorage } from "../../storage/app-storage.js";
import { migrateKeys } from "../../storage/migrate-keys.js";
import { DEFAULT_PRUNE_GRACE_MS, deleteOrphan, pruneStorage } from "../../storage/prune.js";
import { appStorageNamespace } from "../../storage/storage-namespace.js";
import { storageLocation } from "../../storage/storage-url.js";
import { appEnv, databaseUrl, envName } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent storage prune [--grace 1h] [--dry-run] [--force] | migrate-keys [--dry-run]",
  summary: [
    "Manages the app's stored files (STORAGE_URL: the storage/ folder, another folder, or an",
    "S3-compatible bucket). Each app keeps its files under <app>/<environment>/ there (the app's",
    "package.json name, GO_ENV), and these commands touch only the current environment's.",
    "  prune         delete the stored files no row of the database names: what a crash between",
    "                storing an upload and the commit leaves. Only files older than the grace",
    "                period go (a request may still be saving a newer one); a cached variant goes",
    "                with its file; keys Wisent does not write are never touched. A key counts as",
    "                named when any JSON or text column of any table holds it.",
    "  migrate-keys  move the files this environment's rows name from the storage's root, where",
    "                Wisent stored them before keys carried the app and the environment, into",
    "                <app>/<environment>/. Run it once in every environment of every app sharing",
    "                the storage; files no row names stay at the root.",
  ].join("\n"),
  options: [
    [
      "--grace D",
      "prune: leave files younger than D alone: 90s, 30m, 2h, 7d (default 1h; 0 takes every orphan)",
    ],
    ["--dry-run", "list what would be deleted or moved, change nothing"],
    [
      "--force",
      "prune: delete even when no row names any stored file (a wrong DATABASE_URL looks so)",
    ],
  ],
  examples: [
    ["wisent storage prune --dry-run", "what would go"],
    ["wisent storage prune", "delete orphans older than an hour"],
    ["GO_ENV=production wisent storage prune --grace 1d", "in production, orphans of a day"],
    ["GO_ENV=production wisent storage migrate-keys", "move production's files into production/"],
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

/** `wisent storage prune [--grace D] [--dry-run] [--force]`, `wisent storage migrate-keys [--dry-run]`. */
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
    if (sub !== "prune" && sub !== "migrate-keys") {
      throw new UsageError(
        sub === undefined
          ? "which storage command? (use prune or migrate-keys)"
          : `unknown storage command "${sub}": use prune or migrate-keys`,
      );
    }
    if (sub === "migrate-keys" && (values.grace !== undefined || values.force)) {
      throw new UsageError("--grace and --force are prune's options");
    }
    const graceMs =
      typeof values.grace === "string" ? parseGrace(values.grace) : DEFAULT_PRUNE_GRACE_MS;
    const dryRun = values["dry-run"] === true;
    const env = appEnv(io);
    const url = databaseUrl(env, io.cwd);
    // Refuses (naming why) a folder whose files it cannot attribute to an app and environment.
    const storage = openStorage(
      storageLocation(storageUrlSetting(env), io.cwd, env),
      appStorageNamespace(io.cwd, env),
    );
    const db = await openDatabase(url, { cwd: io.cwd, env: envName(env) });
    const out = new Output(io);
    if (sub === "migrate-keys") {
      try {
        return await migrate(storage, db.kysely, dryRun, out);
      } finally {
        await db.close();
      }
    }
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
      out.line(
        `${storage.description}: ${found.orphans.length} orphaned file${found.orphans.length === 1 ? "" : "s"} ${dryRun ? "would be deleted" : "deleted"}, ${found.kept} in use, ${found.recent} newer than ${typeof values.grace === "string" ? values.grace : "1h"} left alone` +
          (found.foreign > 0 ? `, ${found.foreign} not Wisent's left alone` : ""),
      );
      if (found.legacy > 0) {
        out.line(
          `${plural(found.legacy, "file")} at the storage's root, stored before keys carried the app and environment, left alone: wisent storage migrate-keys moves this environment's own`,
        );
      }
      return 0;
    } finally {
      await db.close();
    }
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `wisent storage migrate-keys`: one line per file moved, copied or missing, then a summary. */
async function migrate(
  storage: AppStorage,
  db: Parameters<typeof migrateKeys>[1],
  dryRun: boolean,
  out: Output,
): Promise<number> {
  const report = await migrateKeys(storage, db, { dryRun });
  const would = (verb: string) => (dryRun ? `would ${verb}` : verb);
  for (const key of report.moved) out.line(`${would("move")}  ${key}`);
  for (const { key, from } of report.copied) out.line(`${would("copy")}  ${key}  (from ${from})`);
  for (const key of report.missing) out.line(`missing  ${key}  (named by a row, stored nowhere)`);
  out.line(
    `${storage.description}: ${plural(report.moved.length, "file")} ${dryRun ? "would be moved" : "moved"} from the storage's root, ${report.copied.length} copied from another environment, ${report.present} already in place, ${report.missing.length} missing; ${plural(report.left, "file")} at the root not named here left alone`,
  );
  return 0;
}
