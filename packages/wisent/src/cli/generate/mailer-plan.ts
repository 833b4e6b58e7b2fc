import { camelize, pascalize, underscore } from "../../naming/index.js";
import { humanizeField } from "../../validation/validation.js";
import type { AppEdit, FileGroup, PlannedFile } from "./resource-plan.js";
import { IMPORTS_MARKER, RESOURCES_MARKER } from "./resource-plan.js";
import { UsageError } from "./usage-error.js";

/** The key of a mailer in .wisent/generated.json: `mailer:account`. */
export const mailerRecordKey = (name: string): string => `mailer:${name}`;

/** The layout every mailer shares: written by the first, kept by destroy while another uses it. */
export const MAIL_LAYOUT = "src/mailers/layout.tsx";

/** One mail of a mailer, as the templates print it. */
export interface MailerMail {
  /** `reset`: its key in the mailer object. */
  readonly key: string;
  /** `account.reset` */
  readonly name: string;
  /** `AccountResetProps` */
  readonly propsType: string;
  /** `mailers.account.reset.subject` */
  readonly subjectKey: string;
  /** The subject in the locale file: `Account reset`. */
  readonly subject: string;
}

/** What the mailer templates print. */
export interface MailerTemplateData {
  readonly command: string;
  /** `account` */
  readonly name: string;
  /** `AccountMailer` */
  readonly constant: string;
  /** `account`: the file under src/mailers/, without extension. */
  readonly fileBase: string;
  /** `account_mailer.en-US.json` */
  readonly localeFile: string;
  readonly mails: readonly MailerMail[];
}

/** The manifest of `wisent generate mailer`. */
export interface MailerPlan {
  readonly data: MailerTemplateData;
  readonly files: readonly PlannedFile[];
  readonly edits: readonly AppEdit[];
}

const NAME = /^[a-z][a-z0-9_]*$/;

/**
 * The manifest of a mailer: `src/mailers/<name>.tsx` (one `defineMail` per mail), its test, the
 * subjects' locale file, the shared layout unless `layout: false` (another mailer wrote it), and
 * its lines in src/app.ts (the import, `app.mailerPreviews({ ... })`).
 *
 * @example
 * mailerPlan({ name: "account", mails: ["reset", "welcome"], command: "wisent g mailer account reset welcome" })
 *   .files.map((f) => f.path);
 * // ["src/mailers/account.tsx", "src/mailers/account.test.ts", "src/locales/account_mailer.en-US.json", "src/mailers/layout.tsx"]
 */
export function mailerPlan(request: {
  readonly name: string;
  readonly mails: readonly string[];
  readonly command: string;
  readonly layout?: boolean;
}): MailerPlan {
  const name = underscore(request.name.replace(/-/g, "_"));
  if (!NAME.test(name)) {
    throw new UsageError(`mailer name "${request.name}": use letters, digits and _ (account)`);
  }
  const keys = request.mails.map((mail) => underscore(mail.replace(/-/g, "_")));
  const bad = keys.find((key) => !NAME.test(key));
  if (bad !== undefined)
    throw new UsageError(`mail name "${bad}": use letters, digits and _ (reset)`);
  if (new Set(keys).size !== keys.length) throw new UsageError("a mail is named twice");
  const constant = `${pascalize(name)}Mailer`;
  const data: MailerTemplateData = {
    command: request.command,
    name,
    constant,
    fileBase: name,
    localeFile: `${name}_mailer.en-US.json`,
    mails: keys.map((key) => ({
      key: camelize(key),
      name: `${name}.${key}`,
      propsType: `${pascalize(name)}${pascalize(key)}Props`,
      subjectKey: `mailers.${name}.${key}.subject`,
      subject: humanizeField(`${name}_${key}`),
    })),
  };
  const files: PlannedFile[] = [];
  const add = (group: FileGroup, template: string, path: string) =>
    files.push({ template, path, group });
  add("actions", "src/mailers/__mailer__.tsx.eta", `src/mailers/${name}.tsx`);
  add("tests", "src/mailers/__mailer__.test.ts.eta", `src/mailers/${name}.test.ts`);
  add("locales", "src/locales/__locale__.en-US.json.eta", `src/locales/${data.localeFile}`);
  if (request.layout !== false) add("templates", "src/mailers/layout.tsx.eta", MAIL_LAYOUT);
  const edits: AppEdit[] = [
    {
      path: "src/app.ts",
      marker: IMPORTS_MARKER,
      line: `import { ${constant} } from "./mailers/${name}.js";`,
    },
    {
      path: "src/app.ts",
      marker: RESOURCES_MARKER,
      line: `app.mailerPreviews({ ${constant} }); // development: /__wisent/mailers`,
    },
  ];
  return { data, files, edits };
}
