import { migrationFileName } from "../../data/migrations.js";
import { pascalize, underscore } from "../../naming/index.js";
import type { ColumnMethod } from "./attribute-types.js";
import type { Attribute } from "./attributes.js";
import type { AppEdit, FileGroup, PlannedFile } from "./resource-plan.js";
import { IMPORTS_MARKER, RESOURCES_MARKER } from "./resource-plan.js";
import { UsageError } from "./usage-error.js";

/** The key of a job in .wisent/generated.json: `job:send_digest`. */
export const jobRecordKey = (name: string): string => `job:${name}`;

/** The name of the migration that creates the jobs tables (`<stamp>_create_wisent_jobs.ts`). */
export const JOBS_MIGRATION_NAME = "create_wisent_jobs";

/** The line that names the jobs' database in src/app.ts: written once, kept by destroy. */
export const JOBS_DATABASE_LINE =
  "app.jobs(db); // background jobs, in the app's database (`wisent jobs work` performs them)";

/** What to generate. */
export interface JobRequest {
  /** As given: `send_digest`, `SendDigest` or `send-digest`. */
  readonly name: string;
  readonly attributes: readonly Attribute[];
  readonly command: string;
  /** The jobs tables' migration to write (its file name, or the time to name it by); none when the app has it. */
  readonly migration?: string | Date | undefined;
}

/** One payload field of the job template. */
export interface JobField {
  readonly name: string;
  /** The zod rule of its JSON value. */
  readonly zod: string;
  /** A valid value, as TypeScript source. */
  readonly sample: string;
}

/** What the job templates print. */
export interface JobTemplateData {
  readonly command: string;
  /** `send_digest`: the job's name, stored with each job. */
  readonly name: string;
  /** `SendDigest`: the constant the file exports. */
  readonly constant: string;
  /** `send_digest`: the file's name under src/jobs/, without extension. */
  readonly fileBase: string;
  readonly fields: readonly JobField[];
  /** A field and a value its rule refuses, when any field has one. */
  readonly invalid: { readonly name: string; readonly value: string } | undefined;
}

/** The manifest of `wisent generate job`: files and src/app.ts lines. */
export interface JobPlan {
  readonly request: JobRequest;
  readonly data: JobTemplateData;
  readonly files: readonly PlannedFile[];
  readonly edits: readonly AppEdit[];
}

/** A payload is JSON: each column type's JSON rule, and a value the rule refuses. */
const PAYLOAD_RULES: Readonly<Record<ColumnMethod, { zod: string; invalid?: string }>> = {
  string: { zod: "z.string()", invalid: "42" },
  text: { zod: "z.string()", invalid: "42" },
  integer: { zod: "z.number().int()", invalid: '"42"' },
  bigInteger: { zod: "z.number().int()", invalid: '"42"' },
  boolean: { zod: "z.boolean()", invalid: '"yes"' },
  float: { zod: "z.number()", invalid: '"1.5"' },
  decimal: { zod: "z.number()", invalid: '"1.5"' },
  // Dates travel as ISO text: JSON has no Date.
  timestamp: { zod: "z.iso.datetime()", invalid: '"yesterday"' },
  date: { zod: "z.iso.date()", invalid: '"yesterday"' },
  time: { zod: "z.iso.time()", invalid: '"noon"' },
  uuid: { zod: "z.uuid()", invalid: '"not-a-uuid"' },
  references: { zod: "z.uuid()", invalid: '"not-a-uuid"' },
  json: { zod: "z.unknown()" },
};

/** Sample values of the types whose table samples are not JSON payload values. */
const SAMPLES: Partial<Record<ColumnMethod, string>> = {
  timestamp: '"2026-01-01T10:00:00Z"',
  date: '"2026-01-01"',
  time: '"10:00:00"',
  uuid: '"0190f5a2-7b1c-7cde-8f00-1234567890ef"',
  references: '"0190f5a2-7b1c-7cde-8f00-1234567890ef"',
};

function field(attribute: Attribute): JobField & { invalid?: string } {
  const { type } = attribute;
  if (type.rule) {
    throw new UsageError(
      `attribute "${attribute.name}": a job's payload is JSON and carries no file; pass the record's id (${attribute.name}_id:uuid) instead`,
    );
  }
  const rule = PAYLOAD_RULES[type.column];
  const sample = SAMPLES[type.column] ?? JSON.stringify(type.samples[0]);
  return {
    name: attribute.name,
    zod: type.nullable ? `${rule.zod}.nullable()` : rule.zod,
    sample,
    ...(rule.invalid ? { invalid: rule.invalid } : {}),
  };
}

/**
 * The manifest of a job: its file and test under src/jobs/, the jobs tables' migration when the
 * app has none, and its lines in src/app.ts (the import, `app.jobs(db)` once, `app.job(Job)`).
 * `generate` writes it, `--dry-run` prints it, `destroy` removes it.
 *
 * @example
 * jobPlan({ name: "send_digest", attributes: [], command: "wisent g job send_digest" })
 *   .files.map((f) => f.path); // ["src/jobs/send_digest.ts", "src/jobs/send_digest.test.ts"]
 */
export function jobPlan(request: JobRequest): JobPlan {
  const name = underscore(request.name.replace(/-/g, "_"));
  if (!/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new UsageError(
      `job name "${request.name}": use letters, digits and _ (send_digest), starting with a letter`,
    );
  }
  const constant = pascalize(name);
  const fields = request.attributes.map(field);
  const invalidField = fields.find((f) => f.invalid !== undefined);
  const data: JobTemplateData = {
    command: request.command,
    name,
    constant,
    fileBase: name,
    fields: fields.map(({ invalid: _, ...f }) => f),
    invalid: invalidField
      ? { name: invalidField.name, value: invalidField.invalid as string }
      : undefined,
  };
  const files: PlannedFile[] = [];
  const add = (group: FileGroup, template: string, path: string) =>
    files.push({ template, path, group });
  add("actions", "src/jobs/__job__.ts.eta", `src/jobs/${name}.ts`);
  add("tests", "src/jobs/__job__.test.ts.eta", `src/jobs/${name}.test.ts`);
  if (request.migration !== undefined) {
    const file =
      typeof request.migration === "string"
        ? request.migration
        : migrationFileName(JOBS_MIGRATION_NAME, request.migration);
    add("migration", "migrations/__jobs_table__.ts.eta", `migrations/${file}`);
  }
  const edits: AppEdit[] = [
    {
      path: "src/app.ts",
      marker: IMPORTS_MARKER,
      line: `import { ${constant} } from "./jobs/${name}.js";`,
    },
    { path: "src/app.ts", marker: RESOURCES_MARKER, line: JOBS_DATABASE_LINE },
    { path: "src/app.ts", marker: RESOURCES_MARKER, line: `app.job(${constant});` },
  ];
  return { request, data, files, edits };
}
