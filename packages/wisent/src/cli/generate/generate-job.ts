import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readAppProject } from "./app-project.js";
import { removeAppLines } from "./app-registration.js";
import { parseAttributes } from "./attributes.js";
import type { FileAction } from "./generate-resource.js";
import { migrationTime } from "./generate-resource.js";
import { readRecords, writeRecords } from "./generated-record.js";
import {
  JOBS_DATABASE_LINE,
  JOBS_MIGRATION_NAME,
  type JobPlan,
  jobPlan,
  jobRecordKey,
} from "./job-plan.js";
import { removeGeneratedFiles, writeRecordsAfterRemoval } from "./remove-generated.js";
import { renderTemplate } from "./render.js";
import { UsageError } from "./usage-error.js";
import { plannedWrites, writeGenerated } from "./write-generated.js";

/** The job templates (packages/wisent/templates/job), from src/ and dist/. */
const TEMPLATES = fileURLToPath(new URL("../../../templates/job/", import.meta.url));

/** Options of {@link generateJob}. */
export interface GenerateJobOptions {
  /** `send_digest` */
  readonly name: string;
  /** `email:string`, `count:int`, ... (the generator's attribute syntax). */
  readonly attributes?: readonly string[];
  readonly dryRun?: boolean;
  readonly force?: boolean;
  /** Names the jobs tables' migration when it is written (default: now). */
  readonly now?: Date;
  /** Run the app's Biome over the written files (default true). */
  readonly format?: boolean;
  readonly biome?: string;
}

/** The migration that creates the jobs tables, if the app has one. */
export function jobsMigration(appDir: string): string | undefined {
  const folder = join(appDir, "migrations");
  if (!existsSync(folder)) return undefined;
  const pattern = new RegExp(`^\\d{14}_${JOBS_MIGRATION_NAME}\\.ts$`);
  return readdirSync(folder).find((file) => pattern.test(file));
}

/**
 * Generates a background job into the app in `appDir`: `src/jobs/<name>.ts` (its payload schema
 * from the attributes, and `perform`), its test, the jobs tables' migration when the app has
 * none, and its registration in src/app.ts (`app.jobs(db)` once, `app.job(Job)`); records what
 * it wrote for `destroy job`.
 *
 * @example
 * generateJob("/path/to/shop", { name: "send_digest", attributes: ["email:string"] });
 */
export function generateJob(
  appDir: string,
  options: GenerateJobOptions,
): { plan: JobPlan; actions: readonly FileAction[] } {
  const app = readAppProject(appDir);
  const records = readRecords(appDir);
  const attributes = parseAttributes(options.attributes ?? []);
  const command = ["wisent generate job", options.name, ...(options.attributes ?? [])].join(" ");
  const existing = jobsMigration(appDir);
  const plan = jobPlan({
    name: options.name,
    attributes,
    command,
    migration: existing ? undefined : migrationTime(appDir, options.now ?? new Date()),
  });
  const key = jobRecordKey(plan.data.name);
  if (!options.force && records[key]) {
    throw new UsageError(
      `job ${plan.data.name} exists already: run "wisent destroy job ${plan.data.name}" first, or add --force`,
    );
  }
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
  if (options.dryRun) return { plan, actions };
  const files = writeGenerated(appDir, writes, options);
  const migration = plan.files.find((f) => f.group === "migration");
  writeRecords(appDir, {
    ...records,
    [key]: {
      name: plan.data.name,
      attributes: options.attributes ?? [],
      migration: migration ? migration.path.replace(/^migrations\//, "") : "",
      files,
    },
  });
  return { plan, actions };
}

/**
 * Removes what {@link generateJob} made for a job (from the same manifest): its file and test
 * (asking per file unless `yes`; an edited file is named in the question), its import and
 * `app.job(...)` line, and its record. The jobs tables, their migration and `app.jobs(db)` stay:
 * other jobs, and mail sent later, use them.
 *
 * @example
 * await destroyJob("/path/to/shop", "send_digest", { yes: true });
 */
export async function destroyJob(
  appDir: string,
  name: string,
  options: {
    readonly yes?: boolean;
    readonly dryRun?: boolean;
    readonly confirm?: (question: string) => Promise<boolean>;
  } = {},
): Promise<{ actions: FileAction[] }> {
  const app = readAppProject(appDir);
  const records = readRecords(appDir);
  const plan = jobPlan({ name, attributes: [], command: "" });
  const key = jobRecordKey(plan.data.name);
  const record = records[key];
  if (!record) {
    throw new UsageError(
      `nothing to destroy: no job ${plan.data.name} made by wisent generate job in this app`,
    );
  }
  if (options.dryRun) {
    const present = plan.files.filter((f) => existsSync(join(appDir, f.path)));
    return { actions: present.map((f) => ({ verb: "remove" as const, path: f.path })) };
  }
  const { kept, actions } = await removeGeneratedFiles(appDir, plan.files, record, options);
  if (!kept.includes(`src/jobs/${plan.data.name}.ts`)) {
    const unregistered = removeAppLines(
      app.appSource,
      plan.edits.filter((e) => e.line !== JOBS_DATABASE_LINE),
    );
    if (unregistered.changed) {
      writeFileSync(join(appDir, "src/app.ts"), unregistered.source);
      actions.push({ verb: "update", path: "src/app.ts" });
    }
  }
  if (record.migration) {
    actions.push({ verb: "skip", path: `migrations/${record.migration} (kept: the jobs tables)` });
  }
  writeRecordsAfterRemoval(appDir, records, key, kept);
  return { actions };
}
