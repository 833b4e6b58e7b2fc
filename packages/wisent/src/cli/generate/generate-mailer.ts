import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readAppProject } from "./app-project.js";
import { removeAppLines } from "./app-registration.js";
import type { FileAction } from "./generate-resource.js";
import { readRecords, writeRecords } from "./generated-record.js";
import { MAIL_LAYOUT, type MailerPlan, mailerPlan, mailerRecordKey } from "./mailer-plan.js";
import { removeGeneratedFiles, writeRecordsAfterRemoval } from "./remove-generated.js";
import { renderTemplate } from "./render.js";
import { UsageError } from "./usage-error.js";
import { plannedWrites, writeGenerated } from "./write-generated.js";

/** The mailer templates (packages/wisent/templates/mailer), from src/ and dist/. */
const TEMPLATES = fileURLToPath(new URL("../../../templates/mailer/", import.meta.url));

/**
 * Generates a mailer into the app in `appDir`: `src/mailers/<name>.tsx` with one mail per name
 * (TSX HTML part, text part, sample props for its preview), its test, the subjects in
 * `src/locales/<name>_mailer.en-US.json`, the shared layout when the app has none, and in
 * src/app.ts its import and `app.mailerPreviews(...)`; records what it wrote for destroy.
 *
 * @example
 * generateMailer("/path/to/shop", { name: "account", mails: ["reset", "welcome"] });
 */
export function generateMailer(
  appDir: string,
  options: {
    readonly name: string;
    readonly mails: readonly string[];
    readonly dryRun?: boolean;
    readonly force?: boolean;
    readonly format?: boolean;
    readonly biome?: string;
  },
): { plan: MailerPlan; actions: readonly FileAction[] } {
  if (options.mails.length === 0) {
    throw new UsageError("which mails? (wisent g mailer account reset welcome)");
  }
  const app = readAppProject(appDir);
  const records = readRecords(appDir);
  const command = ["wisent generate mailer", options.name, ...options.mails].join(" ");
  const plan = mailerPlan({
    name: options.name,
    mails: options.mails,
    command,
    layout: !existsSync(join(appDir, MAIL_LAYOUT)),
  });
  const key = mailerRecordKey(plan.data.name);
  if (!options.force && records[key]) {
    throw new UsageError(
      `mailer ${plan.data.name} exists already: run "wisent destroy mailer ${plan.data.name}" first, or add --force`,
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
  writeRecords(appDir, {
    ...records,
    [key]: { name: plan.data.name, attributes: [...options.mails], migration: "", files },
  });
  return { plan, actions };
}

/**
 * Removes what {@link generateMailer} made for a mailer (its record names the mails): its files
 * (asking per file unless `yes`), its lines in src/app.ts, and the layout when no other mailer
 * is left.
 *
 * @example
 * await destroyMailer("/path/to/shop", "account", { yes: true });
 */
export async function destroyMailer(
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
  const probe = mailerPlan({ name, mails: ["x"], command: "" });
  const key = mailerRecordKey(probe.data.name);
  const record = records[key];
  if (!record) {
    throw new UsageError(
      `nothing to destroy: no mailer ${probe.data.name} made by wisent generate mailer in this app`,
    );
  }
  const others = Object.keys(records).some((k) => k !== key && k.startsWith("mailer:"));
  const plan = mailerPlan({ name, mails: record.attributes, command: "", layout: !others });
  if (options.dryRun) {
    const present = plan.files.filter((f) => existsSync(join(appDir, f.path)));
    return { actions: present.map((f) => ({ verb: "remove" as const, path: f.path })) };
  }
  const { kept, actions } = await removeGeneratedFiles(appDir, plan.files, record, options);
  if (!kept.includes(`src/mailers/${plan.data.fileBase}.tsx`)) {
    const unregistered = removeAppLines(app.appSource, plan.edits);
    if (unregistered.changed) {
      writeFileSync(join(appDir, "src/app.ts"), unregistered.source);
      actions.push({ verb: "update", path: "src/app.ts" });
    }
  }
  writeRecordsAfterRemoval(appDir, records, key, kept);
  return { actions };
}
