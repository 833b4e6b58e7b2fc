import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  NO_MIGRATIONS,
} from "kysely";
import { MISSING_MIGRATION_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import type { AnyDB } from "./any-db.js";
import { Database } from "./database.js";

/** `20240501123000_create_widgets.ts`: a UTC timestamp, an underscore, a snake_case name. */
const MIGRATION_FILE = /^(\d{14}_[a-z0-9_]+)\.(ts|mts|js|mjs)$/;

/** One migration and whether it has run. */
export interface MigrationState {
  name: string;
  applied: boolean;
  appliedAt?: Date;
  /** Recorded as run, but its file is gone (Rails' `NO FILE`): its `down` cannot run. */
  missing?: boolean;
}

/** The table where Wisent records the migrations that ran. */
export const MIGRATION_TABLE = "wisent_migration";

/**
 * The file name for a new migration: `<UTC yyyymmddhhmmss>_<name>.ts`.
 *
 * @example
 * migrationFileName("create_widgets", new Date("2024-05-01T12:30:00Z")); // "20240501123000_create_widgets.ts"
 */
export function migrationFileName(name: string, at: Date = new Date(), extension = "ts"): string {
  if (!/^[a-z0-9_]+$/.test(name)) {
    throw new WisentError(
      "E_MIGRATION",
      `invalid migration name "${name}": use lower-case letters, digits and _`,
    );
  }
  const stamp = at.toISOString().replace(/\D/g, "").slice(0, 14);
  return `${stamp}_${name}.${extension}`;
}

/**
 * The migration names of a folder's files (`20240501123000_create_widgets`), in order; none when
 * the folder does not exist. Throws when two files have one name.
 */
export async function migrationFiles(folder: string): Promise<Map<string, string>> {
  let files: string[];
  try {
    files = await readdir(resolve(folder));
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw new WisentError("E_MIGRATION", `cannot read the migrations folder ${resolve(folder)}`, {
      cause,
    });
  }
  const found = new Map<string, string>();
  for (const file of files.sort()) {
    if (file.endsWith(".d.ts") || /\.test\.[mc]?[jt]s$/.test(file)) continue;
    const match = MIGRATION_FILE.exec(file);
    if (!match) continue;
    const name = match[1]!;
    const other = found.get(name);
    if (other)
      throw new WisentError("E_MIGRATION", `two files for migration ${name}: ${other} and ${file}`);
    found.set(name, file);
  }
  return found;
}

/**
 * Loads migrations from a folder with `import()`, so `.ts` files work under a TypeScript loader
 * (tsx, vitest) and `.js` files under plain node. Kysely's FileMigrationProvider needs fs/path
 * objects passed in and accepts any file name; this one checks the naming scheme.
 */
export class FolderMigrationProvider implements MigrationProvider {
  /**
   * `recorded`: the migrations the database lists as run. One whose file is gone gets a
   * stand-in, so Kysely's Migrator (which refuses a run migration it cannot find) still runs
   * the others; reverting it fails with a message naming the missing file.
   * @param folder - the migrations folder
   * @param recorded - the names the database's migration table lists
   */
  constructor(
    readonly folder: string,
    readonly recorded: readonly string[] = [],
  ) {}

  /**
   * The folder's migrations, for Kysely's `Migrator`: every file named
   * `<yyyymmddhhmmss>_<snake_name>.{ts,mts,js,mjs}` is imported (others are skipped).
   * @returns each migration's `up` and `down` by its name (the file name without extension),
   *   plus a stand-in that fails when run for each recorded migration whose file is gone
   * @throws WisentError `E_MIGRATION` when the folder cannot be read, a file does not export an
   *   `up` function, or two files have one name
   */
  async getMigrations(): Promise<Record<string, Migration>> {
    const folder = resolve(this.folder);
    try {
      await readdir(folder);
    } catch (cause) {
      throw new WisentError("E_MIGRATION", `cannot read the migrations folder ${folder}`, {
        cause,
      });
    }
    const found = await migrationFiles(folder);
    const migrations: Record<string, Migration> = {};
    for (const [name, file] of found) {
      const module = (await import(pathToFileURL(join(folder, file)).href)) as Partial<Migration>;
      if (typeof module.up !== "function") {
        throw new WisentError(
          "E_MIGRATION",
          `migration ${file} does not export an up(db) function`,
        );
      }
      migrations[name] = { up: module.up, down: module.down };
    }
    for (const name of this.recorded) {
      if (!(name in migrations)) migrations[name] = missingMigration(name, this.folder);
    }
    return migrations;
  }
}

const MISSING: typeof MISSING_MIGRATION_KEY = MISSING_MIGRATION_KEY;

/** A recorded migration whose file is gone, as a `Migration` that says so when run. */
function missingMigration(name: string, folder: string): Migration {
  const fail = async (): Promise<never> => {
    throw new WisentError(
      "E_MIGRATION",
      `its file is gone from ${folder}, so its down cannot run: restore ${name}.ts (e.g. git checkout) and run this again`,
    );
  };
  return { up: fail, down: fail, [MISSING]: true } as Migration;
}

/**
 * The names recorded in the migration table; none when it does not exist yet. Read before the
 * Migrator runs (not from inside it): a SQLite database has one connection, which the Migrator holds.
 */
export async function recordedMigrations(db: Database | Kysely<AnyDB>): Promise<string[]> {
  const kysely = db instanceof Database ? db.kysely : db;
  const tables = await kysely.introspection.getTables();
  if (!tables.some((t) => t.name === MIGRATION_TABLE)) return [];
  const rows = await kysely.selectFrom(MIGRATION_TABLE).select("name").execute();
  return rows.map((r) => String(r.name));
}

async function migrator(db: Database | Kysely<AnyDB>, folder: string): Promise<Migrator> {
  return new Migrator({
    db: db instanceof Database ? db.kysely : db,
    provider: new FolderMigrationProvider(folder, await recordedMigrations(db)),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: "wisent_migration_lock",
    // A pending migration named before the last one run (a branch merged later) runs, as in
    // Rails; down reverts in the order they ran.
    allowUnorderedMigrations: true,
  });
}

function namesOrThrow(result: MigrationResultSet, verb: string): string[] {
  const failed = result.results?.find((r) => r.status === "Error");
  if (result.error) {
    const cause = result.error;
    const why = cause instanceof Error ? cause.message : String(cause);
    const which = failed ? `migration ${failed.migrationName}` : "migrations";
    throw new WisentError("E_MIGRATION", `${which} could not ${verb}: ${why}`, { cause });
  }
  return (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Runs every pending migration in name order (Kysely's Migrator: one transaction where the
 * dialect allows, and a lock table so two processes never migrate at once).
 * Returns the names that ran; throws an Error naming the migration that failed.
 *
 * @param db - the database (a `Database` or a Kysely instance)
 * @param folder - the migrations folder (`migrations`)
 * @returns the names of the migrations that ran, in order (none when nothing was pending)
 * @throws WisentError `E_MIGRATION` naming the migration that failed (and why), or when the
 *   folder cannot be read or a file exports no `up`
 * @example
 * await migrateUp(db, "migrations"); // ["20240501123000_create_widgets"]
 */
export async function migrateUp(db: Database | Kysely<AnyDB>, folder: string): Promise<string[]> {
  return namesOrThrow(await (await migrator(db, folder)).migrateToLatest(), "run");
}

/**
 * Reverts the last `step` applied migrations (default 1), newest first; returns their names.
 *
 * @param db - the database (a `Database` or a Kysely instance)
 * @param folder - the migrations folder (`migrations`)
 * @param options - `step`: how many to revert (default 1)
 * @returns the names of the migrations reverted
 * @throws WisentError `E_INVALID_ARGUMENT` when `step` is not a whole number of at least 1
 * @throws WisentError `E_MIGRATION` naming the migration whose `down` failed, or whose file is
 *   gone
 * @example
 * await migrateDown(db, "migrations", { step: 2 });
 */
export async function migrateDown(
  db: Database | Kysely<AnyDB>,
  folder: string,
  options: { step?: number } = {},
): Promise<string[]> {
  const step = options.step ?? 1;
  if (!Number.isInteger(step) || step < 1) {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `migrateDown: step must be a whole number of at least 1, got ${step}`,
    );
  }
  const m = await migrator(db, folder);
  // In the order they ran (a migration merged later may sort before one run earlier).
  const applied = (await m.getMigrations())
    .filter((x) => x.executedAt !== undefined)
    .sort(
      (a, b) => a.executedAt!.getTime() - b.executedAt!.getTime() || (a.name < b.name ? -1 : 1),
    );
  if (applied.length === 0) return [];
  const target = applied.length > step ? applied[applied.length - step - 1]!.name : NO_MIGRATIONS;
  return namesOrThrow(await m.migrateTo(target), "be reverted");
}

/**
 * Every migration in the folder, in order, with whether it has been applied.
 *
 * @param db - the database (a `Database` or a Kysely instance)
 * @param folder - the migrations folder (`migrations`)
 * @returns one state per migration: its name, whether it ran and when, and `missing` for one
 *   recorded as run whose file is gone
 * @throws WisentError `E_MIGRATION` when the folder cannot be read or a file exports no `up`
 * @example
 * for (const m of await migrationStatus(db, "migrations")) console.log(m.applied ? "up" : "down", m.name);
 */
export async function migrationStatus(
  db: Database | Kysely<AnyDB>,
  folder: string,
): Promise<MigrationState[]> {
  const infos = await (await migrator(db, folder)).getMigrations();
  return infos.map((info) => {
    if (!info.executedAt) return { name: info.name, applied: false };
    const state: MigrationState = { name: info.name, applied: true, appliedAt: info.executedAt };
    if ((info.migration as { [MISSING]?: boolean })[MISSING]) state.missing = true;
    return state;
  });
}

/**
 * Reverts one applied migration by name, wherever it is in the order (Rails'
 * `db:migrate:down VERSION=...`): `destroy resource` uses it for the resource's own migration.
 * The newest one goes through the Migrator (with its lock); an older one runs its `down` and
 * drops its record in one transaction. Returns false when it had not run.
 *
 * @example
 * await revertMigration(db, "migrations", "20240501123000_create_widgets");
 */
export async function revertMigration(
  db: Database | Kysely<AnyDB>,
  folder: string,
  name: string,
): Promise<boolean> {
  const m = await migrator(db, folder);
  // In the order they ran (a migration merged later may sort before one run earlier).
  const applied = (await m.getMigrations())
    .filter((x) => x.executedAt !== undefined)
    .sort(
      (a, b) => a.executedAt!.getTime() - b.executedAt!.getTime() || (a.name < b.name ? -1 : 1),
    );
  const index = applied.findIndex((x) => x.name === name);
  if (index === -1) return false;
  if (index === applied.length - 1) {
    const target = index > 0 ? applied[index - 1]!.name : NO_MIGRATIONS;
    namesOrThrow(await m.migrateTo(target), "be reverted");
    return true;
  }
  const { down } = applied[index]!.migration;
  if (!down)
    throw new WisentError(
      "E_MIGRATION",
      `migration ${name} could not be reverted: it has no down function`,
    );
  const kysely = db instanceof Database ? db.kysely : db;
  try {
    await kysely.transaction().execute(async (trx) => {
      await down(trx);
      await trx.deleteFrom(MIGRATION_TABLE).where("name", "=", name).execute();
    });
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new WisentError("E_MIGRATION", `migration ${name} could not be reverted: ${why}`, {
      cause,
    });
  }
  return true;
}

/**
 * The migrations whose files have not run yet, without loading them (a readdir and one query):
 * for the development server's pending-migrations page.
 *
 * @example
 * await pendingMigrationNames(db, "migrations"); // ["20240501123000_create_widgets"]
 */
export async function pendingMigrationNames(
  db: Database | Kysely<AnyDB>,
  folder: string,
): Promise<string[]> {
  const files = await migrationFiles(folder);
  if (files.size === 0) return [];
  const ran = new Set(await recordedMigrations(db));
  return [...files.keys()].filter((name) => !ran.has(name));
}
