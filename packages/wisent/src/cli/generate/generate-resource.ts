import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { didYouMean, type Names, names, singularNames } from "../../naming/index.js";
import {
  loadTypeScript,
  type Registration,
  readDeclarations,
  registeredName,
} from "./app-declarations.js";
import { declaresResource, readAppProject } from "./app-project.js";
import { type Attribute, parseAttributes } from "./attributes.js";
import { AUTHENTICATION_RECORD } from "./authentication-plan.js";
import {
  contentHash,
  type GeneratedRecords,
  type ResourceRecord,
  readRecords,
  writeRecords,
} from "./generated-record.js";
import { renderPlan } from "./render.js";
import { OWNER, resourceAccess } from "./resource-access.js";
import { type ResourcePlan, resourcePlan } from "./resource-plan.js";
import { appVariable, type FixtureModel } from "./template-data.js";
import { referenceVar } from "./test-samples.js";
import { testStyle } from "./test-style.js";
import { UsageError } from "./usage-error.js";
import { type FileAction, plannedWrites, writeGenerated } from "./write-generated.js";

export type { FileAction };

/** What `wisent generate resource` was asked. */
export interface GenerateOptions {
  readonly name: string;
  readonly attributes: readonly string[];
  readonly parent?: string | undefined;
  /** With `parent`: its nested records are deleted with it (default: such a delete is refused). */
  readonly cascade?: boolean | undefined;
  /** Declared member routes: `["publish:post"]`. */
  readonly member?: readonly string[] | undefined;
  /** Declared collection routes: `["search:get"]`. */
  readonly collection?: readonly string[] | undefined;
  /** A singular resource (`app.singleton("/profile", ...)`): no List, no id, no model. */
  readonly singular?: boolean | undefined;
  readonly skipModel?: boolean;
  readonly skipMigration?: boolean;
  readonly skipTemplates?: boolean;
  /** `full`: passing tests; `stubs`: failing stubs; default: the app's package.json `wisent.tests`. */
  readonly tests?: string | undefined;
  /** After `wisent g auth`: for every signed-in user, not owned by one (`--shared`). */
  readonly shared?: boolean | undefined;
  /** After `wisent g auth`: for anyone, signed in or not (`--public`). */
  readonly public?: boolean | undefined;
  /** Live pages (`--live`): `live: true`, and the list and record pages subscribe. */
  readonly live?: boolean | undefined;
  /** Overwrite files that exist (and regenerate a resource that is declared already). */
  readonly force?: boolean;
  /** Plan only: nothing is written. */
  readonly dryRun?: boolean;
  /** Names the migration (default: now). */
  readonly now?: Date;
  /** Run the app's Biome over the written files (default true). */
  readonly format?: boolean;
  /** The Biome binary to format with (default the app's `node_modules/.bin/biome`). */
  readonly biome?: string;
}

/** What generate did (or, in a dry run, would do). */
export interface GenerateResult {
  readonly plan: ResourcePlan;
  readonly actions: readonly FileAction[];
  /** Model files reused from another resource (not written). */
  readonly reused: readonly string[];
}

/** What `--singular` cannot go with. */
function checkSingular(options: GenerateOptions): void {
  const refuse = (what: string) => {
    throw new UsageError(`--singular ${what}`);
  };
  if (options.attributes.length > 0) {
    refuse(
      "makes a resource without a model (which record it is, the signed-in user's profile or the site's settings, is the app's to say): give no attributes",
    );
  }
  if (options.parent)
    refuse("cannot be nested with --parent yet: declare it by hand with .singleton()");
  if (options.collection?.length) refuse("has no collection: use --member");
}

/** `names()` (or `singularNames()`) with its error as a usage error. */
export function resourceNames(
  name: string,
  what = "resource name",
  derive: (name: string) => Names = names,
): Names {
  try {
    return derive(name);
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(what === "resource name" ? message : `${what}: ${message}`);
  }
}

/** The command line that made a resource, for the files' headers. */
export function commandLine(options: GenerateOptions): string {
  const flags = [
    options.parent ? `--parent ${options.parent}` : "",
    options.cascade ? "--cascade" : "",
    ...(options.member ?? []).map((route) => `--member ${route}`),
    ...(options.collection ?? []).map((route) => `--collection ${route}`),
    options.singular ? "--singular" : "",
    options.skipModel ? "--skip-model" : "",
    options.skipMigration ? "--skip-migration" : "",
    options.skipTemplates ? "--skip-templates" : "",
    options.shared ? "--shared" : "",
    options.public ? "--public" : "",
    options.live ? "--live" : "",
    options.tests ? `--tests=${options.tests}` : "",
  ];
  return ["wisent generate resource", options.name, ...options.attributes, ...flags]
    .filter((part) => part !== "")
    .join(" ");
}

/** The migration that creates `table` already, if any (`migrations/*_create_widgets.ts`). */
export function existingMigration(appDir: string, table: string): string | undefined {
  const folder = join(appDir, "migrations");
  if (!existsSync(folder)) return undefined;
  const pattern = new RegExp(`^\\d{14}_create_${table}\\.ts$`);
  return readdirSync(folder).find((file) => pattern.test(file));
}

/**
 * When a new migration is named: `now`, or one second after the newest existing migration when
 * that is not earlier, so migrations made within one second (a parent, then its nested child)
 * still run in the order they were generated.
 */
export function migrationTime(appDir: string, now: Date): Date {
  const folder = join(appDir, "migrations");
  if (!existsSync(folder)) return now;
  const stamps = readdirSync(folder)
    .map((file) => /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  const newest = Math.max(...stamps, Number.NEGATIVE_INFINITY);
  return newest >= Math.floor(now.getTime() / 1000) * 1000 ? new Date(newest + 1000) : now;
}

/** The record (other than `except`) that wrote `path`. */
function ownerOf(records: GeneratedRecords, path: string, except: string): string | undefined {
  return Object.keys(records).find((key) => key !== except && path in records[key]!.files);
}

/** The parent's registration in src/app.ts, as the child needs it. */
interface ParentRegistration {
  /** The variable it was exported as (`authors`). */
  readonly variable: string;
  /** Declared with `ownedBy`: routes nested in it need the parent's owner signed in. */
  readonly owned: boolean;
  /** Where it is declared: `src/app.ts:42`. */
  readonly where: string;
}

/**
 * Finds the parent's registration in src/app.ts, under whatever variable it was exported as, and
 * returns that variable and whether it is owned; a typo gets a did-you-mean from the app's resources.
 */
function checkParent(
  appSource: string,
  appDir: string,
  child: Names,
  parent: Names,
  records: GeneratedRecords,
): ParentRegistration {
  if (parent.fileBase === child.fileBase) {
    throw new UsageError(`--parent ${parent.input}: a resource cannot be nested in itself`);
  }
  const ts = loadTypeScript(appDir);
  const declarations = readDeclarations(ts, appSource);
  const registration = declarations.registrations.find(
    (r) => r.className === parent.resourceClass && r.method === "resource",
  );
  if (!registration) {
    const known = new Set(
      [
        ...declarations.registrations.map(registeredName),
        ...Object.values(records).map((r) => r.name),
      ].filter((name): name is string => name !== undefined),
    );
    const guess = didYouMean(parent.input, known);
    const hint = guess ? ` (did you mean ${guess}?)` : "";
    throw new UsageError(
      `--parent ${parent.input}: src/app.ts declares no ${parent.resourceClass}${hint}: generate the parent first`,
    );
  }
  const where = `src/app.ts:${registration.line}`;
  if (registration.receiver !== "app") {
    throw new UsageError(
      `--parent ${parent.input}: ${registration.variable ?? parent.resourceClass} (${where}) is itself nested; nest under a top-level resource`,
    );
  }
  if (!registration.variable) {
    throw new UsageError(
      `--parent ${parent.input}: ${parent.resourceClass} is registered without a variable (${where}): write "export const ${appVariable(parent)} = app.resource(...)"`,
    );
  }
  if (!existsSync(join(appDir, `src/models/${parent.modelFileBase}.ts`))) {
    throw new UsageError(
      `--parent ${parent.input}: src/models/${parent.modelFileBase}.ts is missing (the handlers load the parent through its model)`,
    );
  }
  return { variable: registration.variable, owned: declaredOwned(ts, registration), where };
}

/** Whether a registration's options say `ownedBy` (its records belong to their user). */
function declaredOwned(ts: ReturnType<typeof loadTypeScript>, registration: Registration): boolean {
  const options = registration.node.arguments[2];
  return (
    options !== undefined &&
    ts.isObjectLiteralExpression(options) &&
    options.properties.some(
      (p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === "ownedBy",
    )
  );
}

/**
 * The foreign keys of an owned resource whose records belong to their user: the parent's when it
 * is owned, and each `x:references` whose resource was generated owned or is declared with
 * `ownedBy` in src/app.ts. The model checks them through the owner.
 */
function ownedReferences(
  appSource: string,
  appDir: string,
  records: GeneratedRecords,
  attributes: readonly Attribute[],
  parent: { readonly names: Names; readonly owned: boolean } | undefined,
): Set<string> {
  const owned = new Set<string>();
  if (parent?.owned) owned.add(parent.names.paramKey);
  const referenced = attributes.filter((a) => a.references);
  if (referenced.length === 0) return owned;
  const ts = loadTypeScript(appDir);
  const { registrations } = readDeclarations(ts, appSource);
  for (const attr of referenced) {
    const model = names(attr.name.replace(/_id$/, ""));
    const path = `src/models/${model.modelFileBase}.ts`;
    const generatedOwned = Object.values(records).some(
      (r) => path in r.files && r.access === "owned",
    );
    const declared = registrations.some(
      (r) => r.className === model.resourceClass && declaredOwned(ts, r),
    );
    if (generatedOwned || declared) owned.add(attr.name);
  }
  return owned;
}

/**
 * The parent's field that names it on its children's pages (`name`, `title`): its first short
 * text attribute, as generated; undefined when it has none (the pages show its id).
 */
function parentLabel(records: GeneratedRecords, parent: Names): string | undefined {
  const path = `src/models/${parent.modelFileBase}.ts`;
  const owner = Object.values(records).find((r) => path in r.files);
  if (!owner) return undefined;
  const attrs = parseAttributes(owner.attributes);
  return attrs.find((a) => a.type.display === "text" && !a.type.long && !a.references)?.name;
}

/**
 * The field naming each referenced record (`author_id` -> `name`), for the references whose
 * model was generated here with a short text attribute; the list shows them by it.
 */
function referenceLabels(
  records: GeneratedRecords,
  attributes: readonly Attribute[],
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const attr of attributes) {
    if (!attr.references) continue;
    const label = parentLabel(records, names(attr.name.replace(/_id$/, "")));
    if (label) labels[attr.name] = label;
  }
  return labels;
}

/**
 * The records full tests create first: the parent of a nested resource and each referenced record
 * (`post:references`), made from their own generated attributes (so their models must have been
 * generated here, and must not reference further records themselves).
 */
function fixtureModels(
  records: GeneratedRecords,
  attributes: readonly Attribute[],
  parent: Names | undefined,
): FixtureModel[] {
  const needed: { names: Names; var: string; why: string }[] = [];
  if (parent) needed.push({ names: parent, var: parent.modelVar, why: `--parent ${parent.input}` });
  for (const attr of attributes) {
    if (!attr.references) continue;
    const model = names(attr.name.replace(/_id$/, ""));
    needed.push({ names: model, var: referenceVar(attr), why: `${attr.name} (${attr.typeName})` });
  }
  return needed.map(({ names: model, var: variable, why }) => {
    const path = `src/models/${model.modelFileBase}.ts`;
    const owner = Object.values(records).find((r) => path in r.files);
    if (!owner) {
      throw new UsageError(
        `--tests=full: ${why} needs ${path} made by "wisent g r" (its tests create ${model.humanWithArticle} from its attributes): generate it first, or use --tests=stubs`,
      );
    }
    const own = parseAttributes(owner.attributes);
    if (own.some((a) => a.references)) {
      throw new UsageError(
        `--tests=full: ${model.model} references another record itself; use --tests=stubs for this resource`,
      );
    }
    return { names: model, attributes: own, var: variable, owned: owner.access === "owned" };
  });
}

/**
 * Generates a resource into the app in `appDir`: checks everything first (a bad name, attribute
 * or parent, a collision, a file that would be overwritten without `force`: a {@link UsageError},
 * nothing written), then writes the plan's files, inserts its lines into src/app.ts and records
 * what it wrote (with content hashes) for `destroy`.
 *
 * @example
 * generateResource("/path/to/shop", { name: "widget", attributes: ["title", "description:nulls.Text"] });
 */
export function generateResource(appDir: string, options: GenerateOptions): GenerateResult {
  const app = readAppProject(appDir);
  if (options.name === undefined || options.name.trim() === "") {
    throw new UsageError("missing the resource name (e.g. wisent g r widget title)");
  }
  if (options.singular) checkSingular(options);
  const resource = options.singular
    ? resourceNames(options.name, "resource name", singularNames)
    : resourceNames(options.name);
  const parent = options.parent
    ? resourceNames(options.parent, `--parent ${options.parent}`)
    : undefined;
  const records = readRecords(appDir);
  if (options.cascade && !parent) {
    throw new UsageError(
      "--cascade goes with --parent (a reference attribute takes {cascade}: author:references{cascade})",
    );
  }
  const parentRegistration = parent
    ? checkParent(app.appSource, appDir, resource, parent, records)
    : undefined;
  const parentVar = parentRegistration?.variable;
  let attributes = parseAttributes(options.attributes, parent ? [parent.paramKey] : []);

  const key = resource.fileBase;
  if (!options.force && (records[key] || declaresResource(app.appSource, resource.resourceClass))) {
    throw new UsageError(
      `resource ${resource.urlPath} exists already (${resource.resourceClass} in src/app.ts): run "wisent destroy resource ${options.name}" first, or add --force to overwrite it`,
    );
  }

  // A model made for another resource (widget for admin/widget) is reused, with its fields.
  const modelPath = `src/models/${resource.modelFileBase}.ts`;
  const modelOwner = options.skipModel ? undefined : ownerOf(records, modelPath, key);
  if (modelOwner && attributes.length > 0 && !options.force) {
    throw new UsageError(
      `model ${resource.model} exists already (${modelPath}, made for ${records[modelOwner]!.name}): give no attributes to reuse it, or add --skip-model`,
    );
  }
  const reuseModel = modelOwner !== undefined && !options.force;
  if (reuseModel) attributes = parseAttributes(records[modelOwner]!.attributes);

  const access = resourceAccess(records[AUTHENTICATION_RECORD] !== undefined, {
    shared: options.shared,
    public: options.public,
    ownModel: !options.skipModel && !options.singular && !reuseModel,
  });
  if (options.public && parentRegistration?.owned) {
    throw new UsageError(
      `--public: ${parent!.humanPlural.toLowerCase()} belong to their user (ownedBy, ${parentRegistration.where}), so the routes nested in one need its owner signed in: leave --public out (each user's own ${resource.humanPlural.toLowerCase()}) or use --shared`,
    );
  }
  if (access === "owned" && attributes.some((a) => a.name === OWNER.foreignKey)) {
    throw new UsageError(
      `${OWNER.foreignKey} is the owner column of a resource owned by the signed-in user, set from the session: leave the attribute out (or add --shared for a resource whose records name a user)`,
    );
  }
  const command = commandLine(options);
  const fullTests =
    testStyle(appDir, options.tests) === "full" && !options.skipModel && !options.singular
      ? { fixtures: fixtureModels(records, attributes, parent) }
      : undefined;
  const earlier = existingMigration(appDir, resource.table);
  const plan = resourcePlan({
    names: resource,
    attributes,
    parent,
    parentVar,
    parentOnDelete: options.cascade ? "cascade" : "restrict",
    parentLabel: parent ? parentLabel(records, parent) : undefined,
    referenceLabels: referenceLabels(records, attributes),
    ownedReferences:
      access === "owned"
        ? ownedReferences(
            app.appSource,
            appDir,
            records,
            attributes,
            parent && { names: parent, owned: parentRegistration?.owned === true },
          )
        : undefined,
    declared: { member: options.member, collection: options.collection },
    singular: options.singular,
    api: app.api,
    access,
    live: options.live,
    skipModel: options.skipModel,
    skipMigration: options.skipMigration,
    skipTemplates: options.skipTemplates,
    reuseModel,
    command,
    fullTests,
    migration:
      (options.force || reuseModel) && earlier
        ? earlier
        : migrationTime(appDir, options.now ?? new Date()),
  });
  if (!options.force && !reuseModel && !options.skipModel && !options.skipMigration && earlier) {
    throw new UsageError(
      `migrations/${earlier} creates the ${resource.table} table already: add --force to regenerate, or --skip-migration`,
    );
  }

  const rendered = renderPlan(plan);
  const { writes, actions } = plannedWrites(
    appDir,
    app.appSource,
    rendered,
    plan.edits,
    options.force,
  );
  // The model, its test and its migration stay with the model (destroy keeps them while used).
  const reused = reuseModel
    ? Object.keys(records[modelOwner!]!.files).filter(
        (path) =>
          path === modelPath ||
          path === `src/models/${resource.modelFileBase}.test.ts` ||
          path.startsWith("migrations/"),
      )
    : [];
  if (options.dryRun) return { plan, actions, reused };

  const files = writeGenerated(appDir, writes, options);
  // A parent's page got a link: its recorded hash follows, so the parent does not look edited.
  const rehashed = { ...records };
  for (const path of writes.linked.keys()) {
    for (const [other, r] of Object.entries(rehashed)) {
      if (path in r.files) {
        rehashed[other] = {
          ...r,
          files: { ...r.files, [path]: contentHash(readFileSync(join(appDir, path))) },
        };
      }
    }
  }
  const record: ResourceRecord = {
    name: options.name,
    attributes: reuseModel ? [] : [...options.attributes],
    parent: options.parent,
    cascade: options.cascade || undefined,
    member: options.member?.length ? [...options.member] : undefined,
    collection: options.collection?.length ? [...options.collection] : undefined,
    singular: options.singular || undefined,
    access: access === "public" ? undefined : access,
    skipModel: options.skipModel || undefined,
    skipMigration: options.skipMigration || undefined,
    skipTemplates: options.skipTemplates || undefined,
    tests: fullTests ? "full" : undefined,
    migration:
      plan.files.find((f) => f.group === "migration")?.path.replace(/^migrations\//, "") ?? "",
    files,
    uses: reused.length > 0 ? reused : undefined,
  };
  writeRecords(appDir, { ...rehashed, [key]: record });
  return { plan, actions, reused };
}
