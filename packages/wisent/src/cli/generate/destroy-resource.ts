import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { singularNames } from "../../naming/index.js";
import { loadTypeScript, nestedIn, readDeclarations, unregister } from "./app-declarations.js";
import { readAppProject } from "./app-project.js";
import { editTemplates, removeAppLines } from "./app-registration.js";
import { parseAttributes } from "./attributes.js";
import { generateDropMigration } from "./generate-migration.js";
import { existingMigration, type FileAction, resourceNames } from "./generate-resource.js";
import { contentHash, readRecords, writeRecords } from "./generated-record.js";
import { type FileGroup, type ResourcePlan, resourcePlan } from "./resource-plan.js";
import { UsageError } from "./usage-error.js";

/** What `wisent destroy resource` was asked. */
export interface DestroyOptions {
  readonly name: string;
  /** Remove without asking. */
  readonly yes?: boolean;
  /** List what would be removed; change nothing. */
  readonly dryRun?: boolean;
  /** Asks one question (`Remove src/models/widget.ts? (y/N) `); resolves true for yes. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** The app's database, to roll the resource's migration back when it has run. */
  readonly database?: MigrationControl;
  /** Never roll the migration back: a migration that has run keeps its file. */
  readonly keepMigration?: boolean;
  /** Names a drop migration (default: now). */
  readonly now?: Date;
}

/** What destroy needs of the database: whether a migration ran, and reverting it. */
export interface MigrationControl {
  /** The (masked) URL, for the question. */
  readonly url: string;
  /** Whether the migration (`20240501123000_create_widgets`) has run; undefined when unknown. */
  applied(name: string): Promise<boolean | undefined>;
  /** Every migration recorded as run, in order; undefined when unknown. */
  recorded(): Promise<readonly string[] | undefined>;
  /** Runs the migration's down and forgets it ran. */
  revert(name: string): Promise<void>;
}

/** A file destroy would remove, and why a person may want to keep it. */
export interface DestroyCandidate {
  readonly path: string;
  readonly group: FileGroup;
  /** Changed since generate wrote it (or never recorded): named in the prompt. */
  readonly edited: boolean;
}

/** What destroy did (or would do). */
export interface DestroyResult {
  readonly plan: ResourcePlan;
  readonly candidates: readonly DestroyCandidate[];
  readonly actions: readonly FileAction[];
  /** Files kept because another resource uses them. */
  readonly shared: readonly string[];
}

/** Buffalo's order: templates, actions, locales, model, migrations, then the tests. */
const ORDER: readonly FileGroup[] = [
  "templates",
  "actions",
  "locales",
  "model",
  "migration",
  "tests",
];

/** The group of a file known only by its path (one inherited from another resource). */
function groupOf(path: string): FileGroup {
  if (path.includes(".test.")) return "tests";
  return path.startsWith("migrations/") ? "migration" : "model";
}

/** The prompt for one file: `Remove src/models/widget.ts? (y/N) `, naming an edit since generation. */
export function removePrompt(candidate: DestroyCandidate): string {
  const note = candidate.edited ? " (edited since it was generated)" : "";
  return `Remove ${candidate.path}${note}? (y/N) `;
}

/** The question before reverting a migration that has run. */
export function revertPrompt(migration: string, url: string): string {
  return `Roll back ${migration} (it has run on ${url})? (y/N) `;
}

/** What becomes of a resource's migration. */
type MigrationFate =
  | { kind: "remove" }
  | { kind: "revert"; url: string }
  | { kind: "keep"; why: string; dropTable: boolean };

/** The migrations after `name` in the folder whose text names `table` (`"books"`). */
function laterUsers(appDir: string, name: string, table: string): string[] {
  const folder = join(appDir, "migrations");
  const quoted = new RegExp(`["'\`]${table}["'\`]`);
  return readdirSync(folder)
    .filter((file) => /\.[mc]?[jt]s$/.test(file) && file.replace(/\.[mc]?[jt]s$/, "") > name)
    .sort()
    .filter((file) => quoted.test(readFileSync(join(folder, file), "utf8")))
    .map((file) => file.replace(/\.[mc]?[jt]s$/, ""));
}

/**
 * Whether the resource's migration can go: it is rolled back only when it is the last one run,
 * and kept when a later migration uses its table or ran after it (a fresh database could no
 * longer be built, or the database would record migrations the folder cannot explain).
 */
async function migrationFate(
  appDir: string,
  name: string,
  table: string,
  options: DestroyOptions,
): Promise<MigrationFate> {
  const database = options.database;
  const recorded = database ? await database.recorded() : [];
  if (recorded === undefined) {
    return {
      kind: "keep",
      why: `could not ask ${database!.url} whether it has run`,
      dropTable: false,
    };
  }
  const later = laterUsers(appDir, name, table);
  if (later[0]) {
    return {
      kind: "keep",
      why: `${later[0]}, which comes after it, uses the ${table} table`,
      dropTable: true,
    };
  }
  if (!recorded.includes(name)) return { kind: "remove" };
  const after = recorded.filter((other) => other > name).sort();
  if (after[0]) {
    return {
      kind: "keep",
      why: `${after[0]} has run after it on ${database!.url}, so it is not the last one to roll back`,
      dropTable: true,
    };
  }
  return { kind: "revert", url: database!.url };
}

/** Whether the folder has a `drop_<table>` migration already. */
function dropMigrationExists(appDir: string, table: string): boolean {
  const pattern = new RegExp(`^\\d{14}_drop_${table}\\.[mc]?[jt]s$`);
  return readdirSync(join(appDir, "migrations")).some((file) => pattern.test(file));
}

/** Removes now-empty folders from `dir` up to (not including) `stop`. */
export function pruneEmptyFolders(appDir: string, dir: string, stop: string): void {
  let current = dir;
  while (current !== stop && current.startsWith(stop)) {
    const full = join(appDir, current);
    if (!existsSync(full) || readdirSync(full).length > 0) return;
    rmdirSync(full);
    current = dirname(current);
  }
}

/**
 * Removes what `generate resource` made for `name`, driven by the same manifest: each file is
 * confirmed (unless `yes`), files another resource shares stay, the src/app.ts lines go when the
 * handlers go, and the record is updated. A resource with nested resources is refused (destroy
 * those first), as is one the app does not have.
 */
export async function destroyResource(
  appDir: string,
  options: DestroyOptions,
): Promise<DestroyResult> {
  if (options.name === undefined || options.name.trim() === "") {
    throw new UsageError("missing the resource name (e.g. wisent d r widget)");
  }
  const app = readAppProject(appDir);
  const records = readRecords(appDir);
  // A singular resource (`g r profile --singular`) is recorded under its singular file base.
  const singular = resourceNames(options.name, "resource name", singularNames);
  const resource = records[singular.fileBase]?.singular ? singular : resourceNames(options.name);
  const key = resource.fileBase;
  const record = records[key];
  const parent = record?.parent ? resourceNames(record.parent) : undefined;

  const ts = loadTypeScript(appDir);
  const declarations = readDeclarations(ts, app.appSource);
  for (const registration of declarations.registrations) {
    if (registration.className !== resource.resourceClass) continue;
    const child = nestedIn(declarations, registration)[0];
    if (child) {
      throw new UsageError(
        `${resource.urlPath} has a nested resource (${child.variable ?? child.className} in src/app.ts:${child.line}): destroy it first`,
      );
    }
  }

  const plan = resourcePlan({
    names: resource,
    attributes: record ? parseAttributes(record.attributes) : [],
    parent,
    declared: { member: record?.member, collection: record?.collection },
    singular: record?.singular,
    api: app.api,
    access: record?.access,
    skipModel: record?.skipModel,
    skipMigration: record?.skipMigration,
    skipTemplates: record?.skipTemplates,
    reuseModel: (record?.uses?.length ?? 0) > 0,
    command: "",
    migration:
      record?.migration || existingMigration(appDir, resource.table) || "00000000000000_none.ts",
  });

  // Files this resource took over from a destroyed one whose model it reused.
  const inherited = Object.keys(record?.files ?? {})
    .filter((path) => !plan.files.some((f) => f.path === path))
    .map((path) => ({ path, group: groupOf(path) }));
  const shared: string[] = [];
  const handover = new Map<string, string>();
  const candidates: DestroyCandidate[] = [];
  for (const group of ORDER) {
    for (const file of [...plan.files, ...inherited].filter((f) => f.group === group)) {
      const full = join(appDir, file.path);
      if (!existsSync(full)) continue;
      const others = Object.entries(records).filter(
        ([other, r]) => other !== key && (file.path in r.files || r.uses?.includes(file.path)),
      );
      if (others.length > 0) {
        shared.push(file.path);
        const user = others.find(([, r]) => r.uses?.includes(file.path));
        if (user && record?.files[file.path]) handover.set(file.path, user[0]);
        continue;
      }
      const hash = record?.files[file.path];
      candidates.push({
        path: file.path,
        group,
        edited: hash === undefined || hash !== contentHash(readFileSync(full)),
      });
    }
  }
  const appFile = join(appDir, "src/app.ts");
  // Refused (naming the line to remove by hand) before anything changes, when taking the
  // registration out would leave src/app.ts not compiling.
  const unregistered = unregister(ts, app.appSource, resource.resourceClass);
  const unlinked = editTemplates(appDir, plan.edits, removeAppLines);
  // A migration alone is no resource (`generate` agrees): one a destroy kept stays.
  if (candidates.every((c) => c.group === "migration") && !unregistered.changed && !record) {
    const lone = candidates[0]
      ? `; ${candidates[0].path} creates its table: wisent destroy migration removes it`
      : "";
    throw new UsageError(
      `nothing to destroy: the app has no ${resource.urlPath} resource (no files, no ${resource.resourceClass} in src/app.ts)${lone}`,
    );
  }

  const actions: FileAction[] = [];
  // The migration goes only when nothing needs it: rolled back first when it is the last one
  // applied, kept (with a drop migration offered) when a later migration uses its table or has
  // run after it, so a fresh database can always be built from the folder.
  const migrationFile = candidates.find((c) => c.group === "migration");
  const migrationName = migrationFile?.path
    .replace(/^migrations\//, "")
    .replace(/\.[mc]?[jt]s$/, "");
  const fate = migrationName
    ? await migrationFate(appDir, migrationName, resource.table, options)
    : undefined;
  // A kept migration leaves the record once the rest is gone: generating the resource again then
  // names the migration that creates its table already.
  const released = new Set<string>();
  const keepMigration = (reason: string) => {
    candidates.splice(candidates.indexOf(migrationFile!), 1);
    released.add(migrationFile!.path);
    actions.push({ verb: "skip", path: `${migrationFile!.path} (kept: ${reason})` });
  };
  if (fate?.kind === "keep") keepMigration(fate.why);
  if (options.dryRun) {
    if (fate?.kind === "revert" && !options.keepMigration) {
      actions.push({ verb: "revert", path: migrationName! });
    }
    if (unregistered.changed) actions.push({ verb: "update", path: "src/app.ts" });
    for (const path of unlinked.keys()) actions.push({ verb: "update", path });
    return { plan, candidates, actions, shared };
  }

  if (fate?.kind === "revert") {
    const revert =
      !options.keepMigration &&
      (options.yes || (await options.confirm?.(revertPrompt(migrationName!, fate.url))) === true);
    if (revert) {
      await options.database!.revert(migrationName!);
      actions.push({ verb: "revert", path: migrationName! });
    } else {
      keepMigration(`it has run on ${fate.url}`);
    }
  }

  const removed = new Set<string>();
  for (const candidate of candidates) {
    const yes = options.yes || (await options.confirm?.(removePrompt(candidate))) === true;
    if (!yes) {
      actions.push({ verb: "skip", path: candidate.path });
      continue;
    }
    rmSync(join(appDir, candidate.path));
    removed.add(candidate.path);
    actions.push({ verb: "remove", path: candidate.path });
    pruneEmptyFolders(appDir, dirname(candidate.path), "src");
  }
  // The app keeps compiling: its declaration goes with the handlers, and stays if they stay.
  const actionsFile = plan.files.find((f) => f.group === "actions")!.path;
  const handlersGone = removed.has(actionsFile) || !existsSync(join(appDir, actionsFile));
  if (handlersGone && unregistered.changed) {
    writeFileSync(appFile, unregistered.source);
    actions.push({ verb: "update", path: "src/app.ts" });
  }
  const dropping = fate?.kind === "keep" && fate.dropTable && handlersGone;
  if (dropping && !options.keepMigration && !dropMigrationExists(appDir, resource.table)) {
    const question = `Add a migration that drops the ${resource.table} table (its down makes it again)? (y/N) `;
    if (options.yes || (await options.confirm?.(question)) === true) {
      const path = generateDropMigration(appDir, {
        table: resource.table,
        createMigration: migrationName!,
        why: (fate as { why: string }).why,
        command: `wisent destroy resource ${options.name}`,
        now: options.now,
      });
      actions.push({ verb: "create", path });
    }
  }
  // Its links go with the handlers too (a layout or page being removed with them is skipped).
  const linksGone = new Map<string, string>();
  if (handlersGone) {
    for (const [path, source] of unlinked) {
      if (removed.has(path) || !existsSync(join(appDir, path))) continue;
      writeFileSync(join(appDir, path), source);
      linksGone.set(path, contentHash(source));
      actions.push({ verb: "update", path });
    }
  }
  if (record) {
    const rest = { ...records };
    // The parent's page is back as it was generated: its hash follows.
    for (const [path, hash] of linksGone) {
      for (const [other, r] of Object.entries(rest)) {
        if (path in r.files) rest[other] = { ...r, files: { ...r.files, [path]: hash } };
      }
    }
    const left = (path: string) => !removed.has(path) && existsSync(join(appDir, path));
    const own = Object.keys(record.files).filter(
      (path) => left(path) && !released.has(path) && !handover.has(path),
    );
    if (own.length === 0 && handlersGone) {
      // The resource is gone: a shared model now belongs to the resource that reused it, so its
      // destroy removes it.
      for (const [path, user] of handover) {
        const r = rest[user]!;
        rest[user] = {
          ...r,
          files: { ...r.files, [path]: record.files[path]! },
          uses: r.uses?.filter((p) => p !== path),
        };
      }
      delete rest[key];
    } else {
      rest[key] = {
        ...record,
        files: Object.fromEntries(Object.entries(record.files).filter(([path]) => left(path))),
      };
    }
    // Answered "no" throughout, the record is what it was (a kept migration included):
    // writeRecords leaves the file alone.
    writeRecords(appDir, rest);
  }
  return { plan, candidates, actions, shared };
}
