import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  addAppDependencies,
  missingPeerDependencies,
  removeAppDependencies,
} from "./app-dependencies.js";
import { readAppProject } from "./app-project.js";
import { editTemplates, removeAppLines } from "./app-registration.js";
import {
  AUTHENTICATION_RECORD,
  type AuthenticationPlan,
  authenticationPlan,
} from "./authentication-plan.js";
import { type MigrationControl, revertPrompt } from "./destroy-resource.js";
import { jobsMigration } from "./generate-job.js";
import type { FileAction } from "./generate-resource.js";
import { migrationTime } from "./generate-resource.js";
import { readRecords, writeRecords } from "./generated-record.js";
import { JOBS_DATABASE_LINE } from "./job-plan.js";
import { removeGeneratedFiles, writeRecordsAfterRemoval } from "./remove-generated.js";
import { renderTemplate } from "./render.js";
import { UsageError } from "./usage-error.js";
import { plannedWrites, writeGenerated } from "./write-generated.js";

/** The authentication templates (packages/wisent/templates/authentication), from src/ and dist/. */
const TEMPLATES = fileURLToPath(new URL("../../../templates/authentication/", import.meta.url));

/** The command line, for the files' headers. */
export const AUTHENTICATION_COMMAND = "wisent generate authentication";

/** Options of {@link generateAuthentication}. */
export interface GenerateAuthenticationOptions {
  readonly dryRun?: boolean;
  readonly force?: boolean;
  /** Names the migration (default: now). */
  readonly now?: Date;
  /** Run the app's Biome over the written files (default true). */
  readonly format?: boolean;
  readonly biome?: string;
}

/** What generate authentication did (or, in a dry run, would do). */
export interface GenerateAuthenticationResult {
  readonly plan: AuthenticationPlan;
  readonly actions: readonly FileAction[];
  /** Packages added to the app's package.json (`nodemailer`): `npm install` installs them. */
  readonly added: readonly string[];
}

/**
 * Generates sign-up, sign-in, sign-out, password reset, email verification and an account page
 * into the web app in `appDir` (a User model and migration, handlers, templates, locale messages
 * and tests, their lines in src/app.ts, the layout's account links and verification banner, and
 * nodemailer in its package.json for the reset and verification mails), or into
 * an API app access tokens (`POST /tokens`, `DELETE /tokens/current`, `Authorization: Bearer`);
 * records what it wrote for `destroy`.
 *
 * @example
 * generateAuthentication("/path/to/shop");
 */
export function generateAuthentication(
  appDir: string,
  options: GenerateAuthenticationOptions = {},
): GenerateAuthenticationResult {
  const app = readAppProject(appDir);
  const records = readRecords(appDir);
  if (!options.force && records[AUTHENTICATION_RECORD]) {
    throw new UsageError(
      'authentication exists already: run "wisent destroy authentication" first, or add --force',
    );
  }
  const taken = Object.entries(records).find(
    ([key, r]) => key !== AUTHENTICATION_RECORD && "src/models/user.ts" in r.files,
  );
  if (taken || (!options.force && existsSync(join(appDir, "src/models/user.ts")))) {
    throw new UsageError(
      "src/models/user.ts exists already: authentication makes its own User model (destroy the user resource first)",
    );
  }
  const folder = join(appDir, "migrations");
  const existing = existsSync(folder) ? readdirSync(folder) : [];
  const earlier = ["users", "access_tokens"].map((table) =>
    existing.find((name) => new RegExp(`^\\d{14}_create_${table}\\.ts$`).test(name)),
  );
  if (earlier.some(Boolean) && !options.force) {
    throw new UsageError(`migrations/${earlier.find(Boolean)} creates its table already`);
  }
  const at = migrationTime(appDir, options.now ?? new Date());
  // After users (and access tokens): the jobs tables, when the app has none yet.
  const jobsTables = jobsMigration(appDir) ? undefined : new Date(at.getTime() + 2000);
  const fresh = authenticationPlan({
    api: app.api,
    command: AUTHENTICATION_COMMAND,
    migrations: at,
    jobsMigration: jobsTables,
  });
  // --force over an earlier run keeps its migrations' names.
  const plan = earlier.some(Boolean)
    ? authenticationPlan({
        api: app.api,
        command: AUTHENTICATION_COMMAND,
        migrations: fresh.files
          .filter((f) => f.group === "migration" && !isJobsMigration(f.path))
          .map((f, i) => earlier[i] ?? f.path.replace(/^migrations\//, "")),
        jobsMigration: jobsTables,
      })
    : fresh;
  const rendered = new Map(
    plan.files.map((f) => [f.path, renderTemplate(f.template, plan.data, TEMPLATES)]),
  );
  const { writes, actions } = plannedWrites(
    appDir,
    app.appSource,
    rendered,
    plan.edits,
    options.force,
  );
  // The reset mail needs nodemailer in production: the app depends on it from now on.
  const added = missingPeerDependencies(appDir, plan.dependencies);
  if (added.length > 0) actions.push({ verb: "update", path: "package.json" });
  if (options.dryRun) return { plan, actions, added: added.map(([name]) => name) };

  const files = writeGenerated(appDir, writes, options);
  addAppDependencies(appDir, added);
  const dependencies = [
    ...new Set([
      ...(records[AUTHENTICATION_RECORD]?.dependencies ?? []),
      ...added.map(([name]) => name),
    ]),
  ];
  writeRecords(appDir, {
    ...records,
    [AUTHENTICATION_RECORD]: {
      name: AUTHENTICATION_RECORD,
      attributes: [],
      ...(dependencies.length > 0 && { dependencies }),
      // Comma-separated when there are two (an API app's users and access_tokens).
      // Not the jobs tables': destroy keeps them (other jobs share them).
      migration: plan.files
        .filter((f) => f.group === "migration" && !isJobsMigration(f.path))
        .map((f) => f.path.replace(/^migrations\//, ""))
        .join(","),
      // Nor the jobs tables' migration among the files: it is no longer authentication's.
      files: Object.fromEntries(Object.entries(files).filter(([path]) => !isJobsMigration(path))),
    },
  });
  return { plan, actions, added: added.map(([name]) => name) };
}

/** Options of {@link destroyAuthentication}. */
export interface DestroyAuthenticationOptions {
  readonly yes?: boolean;
  readonly dryRun?: boolean;
  /** Asks about one file (or the migration's rollback); true to go ahead. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** Whether the migration has run, and rolling it back (see `destroy resource`). */
  readonly database?: MigrationControl;
}

/**
 * Removes what {@link generateAuthentication} made (from the same manifest): its files (asking
 * per file unless `yes`; an edited file is named in the question), its lines in src/app.ts and
 * the layout, and its record. A migration that has run is rolled back first.
 *
 * @example
 * await destroyAuthentication("/path/to/shop", { yes: true });
 */
export async function destroyAuthentication(
  appDir: string,
  options: DestroyAuthenticationOptions = {},
): Promise<{ actions: FileAction[] }> {
  const app = readAppProject(appDir);
  const records = readRecords(appDir);
  const record = records[AUTHENTICATION_RECORD];
  if (!record) {
    throw new UsageError(
      "nothing to destroy: this app has no authentication made by wisent generate authentication",
    );
  }
  const migrationFiles = record.migration.split(",");
  const plan = authenticationPlan({ api: app.api, command: "", migrations: migrationFiles });
  const actions: FileAction[] = [];
  // Newest first: access_tokens refers to users.
  const migrations = migrationFiles.map((f) => f.replace(/\.ts$/, "")).reverse();
  const ran: string[] = [];
  for (const name of migrations) {
    if (options.database && (await options.database.applied(name))) ran.push(name);
  }
  const present = plan.files.filter((f) => existsSync(join(appDir, f.path)));
  if (options.dryRun) {
    for (const name of ran) actions.push({ verb: "revert", path: name });
    for (const f of present) actions.push({ verb: "remove", path: f.path });
    return { actions };
  }
  let keepMigration = false;
  for (const name of ran) {
    const revert =
      !keepMigration &&
      (options.yes ||
        (await options.confirm?.(revertPrompt(name, options.database!.url))) === true);
    if (revert) {
      await options.database!.revert(name);
      actions.push({ verb: "revert", path: name });
    } else keepMigration = true;
  }
  const migrationPaths = new Set(
    plan.files.filter((f) => f.group === "migration").map((f) => f.path),
  );
  const removed = await removeGeneratedFiles(appDir, present, record, options, (path) =>
    keepMigration && migrationPaths.has(path) ? "kept: it has run" : undefined,
  );
  actions.push(...removed.actions);
  const { kept } = removed;
  const handlersGone = !plan.files.some((f) => f.group === "actions" && kept.includes(f.path));
  if (handlersGone) {
    const unregistered = removeAppLines(
      app.appSource,
      plan.edits.filter((e) => e.path === "src/app.ts" && e.line !== JOBS_DATABASE_LINE),
    );
    if (unregistered.changed) {
      writeFileSync(join(appDir, "src/app.ts"), unregistered.source);
      actions.push({ verb: "update", path: "src/app.ts" });
    }
    for (const [path, source] of editTemplates(appDir, plan.edits, removeAppLines)) {
      writeFileSync(join(appDir, path), source);
      actions.push({ verb: "update", path });
    }
    if (removeAppDependencies(appDir, record.dependencies ?? [])) {
      actions.push({ verb: "update", path: "package.json" });
    }
  }
  writeRecordsAfterRemoval(appDir, records, AUTHENTICATION_RECORD, kept);
  return { actions };
}

/** The jobs tables' migration (`<stamp>_create_wisent_jobs.ts`), which destroy leaves. */
function isJobsMigration(path: string): boolean {
  return /_create_wisent_jobs\.ts$/.test(path);
}
