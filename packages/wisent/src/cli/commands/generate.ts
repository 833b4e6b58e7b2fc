import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import { TYPE_NAMES } from "../generate/attribute-types.js";
import { type GenerateResult, generateResource } from "../generate/generate-resource.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent generate resource <name> [attr[:type]]... [options]   (alias: wisent g r)",
  summary:
    "Generates a resource into the app in this folder: model, migration, handlers (List, Show, New,\nCreate, Edit, Update, Destroy), templates, locale messages and test stubs, and declares it in\nsrc/app.ts. An API app gets the five required operations only, no templates or locale file.",
  options: [
    ["--parent <resource>", "nest under a resource: /widgets/{widget_id}/images, a widget_id key"],
    [
      "--cascade",
      "with --parent: deleting the parent deletes its nested records (default: refused, 409, while it has any)",
    ],
    [
      "--member <action:method>",
      "a route on one record, answered by a method of that name: publish:post -> POST /widgets/{widget_id}/publish (repeat or comma-separate)",
    ],
    [
      "--collection <action:method>",
      "a route on the collection, ahead of Show: search:get -> GET /widgets/search (repeat or comma-separate)",
    ],
    [
      "--singular",
      "a singular resource (app.singleton): /profile with Show, New, Create, Edit, Update, Destroy, no list, no id, no model",
    ],
    [
      "--shared",
      "after wisent g auth: for every signed-in user (authenticate: true), not owned by one",
    ],
    [
      "--public",
      'after wisent g auth: for anyone, signed in or not (by default a resource belongs to the\nsigned-in user who made it: a user_id column, ownedBy: "user_id")',
    ],
    [
      "--live",
      "live pages: the list and record pages refresh themselves when anyone changes a record\n(live: true; docs/guides/live-pages.md)",
    ],
    ["-s, --skip-migration", "no migration"],
    ["--skip-model", "no model or migration; the handlers answer their name (Widget#List)"],
    ["--skip-templates", "no templates or locale file; the handlers answer JSON and XML"],
    [
      "--tests <style>",
      'stubs (failing "Not Implemented!", the default) or full (passing tests of every\noperation and format); an app\'s default: "wisent": { "tests": "full" } in package.json',
    ],
    ["-d, --dry-run", "print the names and the files; write nothing"],
    ["-f, --force", "overwrite files that exist"],
  ],
  examples: [
    ["wisent g r widget title description:nulls.Text", "the example shop's widget"],
    ["wisent g r user_profile display_name age:int active:bool", "a multi-word resource"],
    ["wisent g r admin/widget", "under /admin/widgets"],
    ["wisent g r image caption --parent widget", "nested under /widgets/{widget_id}"],
    ["wisent g r post title --member publish:post --collection search:get", "with declared routes"],
    ["wisent g r widget title --dry-run", "see what would be written"],
    ["wisent g r post title published_at:datetime --tests=full", "with passing tests"],
    ["wisent g r comment body:text post:references", "a post_id foreign key to posts"],
    [
      "wisent g r book isbn:string:uniq title:index --parent author",
      "a unique ISBN, an indexed title",
    ],
    ["wisent g r note body author:references{cascade}", "notes deleted with their author"],
  ],
  notes: `Attribute types (default string): ${TYPE_NAMES.join(", ")}.\nstring, text, int, bigint, time, timestamp, date, uuid and references are required; nulls.*, bool,\nfloat, decimal and json are not. decimal{10,2} sets precision and scale (quote it in a shell, or\nwrite decimal{10.2}); a decimal refuses more places than its scale. post:references is a post_id\ncolumn pointing to posts; deleting a post that rows point to is refused (409) unless written\npost:references{cascade}. Modifiers, written last: isbn:string:uniq (a unique index; a taken\nvalue is a 422; on a resource owned by the signed-in user, unique per user: write\ncode:string:uniq{global} for one value across every user), title:index (an index).`,
};

/** `wisent generate resource <name> [attr[:type]]...` (`wisent g r`). */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        parent: { type: "string" },
        cascade: { type: "boolean" },
        member: { type: "string", multiple: true },
        collection: { type: "string", multiple: true },
        singular: { type: "boolean" },
        shared: { type: "boolean" },
        public: { type: "boolean" },
        live: { type: "boolean" },
        "skip-migration": { type: "boolean", short: "s" },
        "skip-model": { type: "boolean" },
        "skip-templates": { type: "boolean" },
        tests: { type: "string" },
        "dry-run": { type: "boolean", short: "d" },
        force: { type: "boolean", short: "f" },
      },
      Number.POSITIVE_INFINITY,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const [name = "", ...attributes] = positionals;
    const dryRun = values["dry-run"] === true;
    const started = performance.now();
    const result = generateResource(io.cwd, {
      name,
      attributes,
      parent: values.parent as string | undefined,
      cascade: values.cascade === true,
      member: values.member as unknown as string[] | undefined,
      collection: values.collection as unknown as string[] | undefined,
      singular: values.singular === true,
      shared: values.shared === true,
      public: values.public === true,
      live: values.live === true,
      skipModel: values["skip-model"] === true,
      skipMigration: values["skip-migration"] === true,
      skipTemplates: values["skip-templates"] === true,
      tests: values.tests as string | undefined,
      force: values.force === true,
      dryRun,
    });
    const out = new Output(io);
    if (dryRun) printNames(out, result);
    for (const path of result.reused) out.action("exists", `${path} (reused)`);
    for (const action of result.actions) out.action(action.verb, action.path);
    if (dryRun) {
      out.hint("dry run: nothing was written");
      return 0;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    out.hint(`generated ${result.plan.data.resource.className} in ${seconds} s`);
    if (result.plan.files.some((f) => f.group === "migration")) out.hint("next: wisent migrate");
    const lists = result.plan.files.some((f) => f.path.endsWith("/index.tsx"));
    if (result.plan.data.hasFiles && lists && !installedDependency("sharp", io.cwd)) {
      out.hint("the list shows image thumbnails, made by sharp: npm install sharp");
    }
    return 0;
  });
}

/** The derived names, printed by --dry-run before the file plan. */
function printNames(out: Output, result: GenerateResult): void {
  const { data } = result.plan;
  const rows: [string, string][] = [
    ["model", `${data.model.name} (table ${data.model.table})`],
    ["resource", `${data.resource.className} at ${data.resource.collectionPath}`],
    ["param", data.resource.paramKey],
    ["routes", [...Object.values(data.routes), ...data.declared.map((d) => d.name)].join(", ")],
    ["declared as", `${data.resource.appVar} in src/app.ts`],
  ];
  if (!data.api) {
    rows.push([
      "messages",
      ["created", "updated", "destroyed"]
        .map((e) => `${data.model.i18nKey}.${e}.success`)
        .join(", "),
    ]);
  }
  for (const attr of data.attrs) {
    rows.push([
      `  ${attr.name}`,
      `${attr.typeName}: ${attr.type.tsType}, ${attr.type.required ? "required" : "optional"}, ${attr.input} input`,
    ]);
  }
  const width = Math.max(...rows.map(([left]) => left.length));
  out.heading(`Resource ${result.plan.request.names.input}`);
  for (const [left, right] of rows) out.line(`  ${left.padEnd(width)}  ${right}`);
  out.line();
}

/**
 * Whether the app in `cwd` has `name` (an optional peer) as its production image will: listed in
 * its package.json's `dependencies` (the Dockerfile prunes dev dependencies away) and loadable.
 * Loadable alone is not enough: a copy in a folder above the app (a monorepo's, a checkout's)
 * loads in development and is missing from the image.
 */
function installedDependency(name: string, cwd: string): boolean {
  const manifest = join(cwd, "package.json");
  try {
    const { dependencies } = JSON.parse(readFileSync(manifest, "utf8")) as {
      dependencies?: Record<string, string>;
    };
    if (dependencies?.[name] === undefined) return false;
    createRequire(manifest).resolve(name);
    return true;
  } catch {
    return false;
  }
}
