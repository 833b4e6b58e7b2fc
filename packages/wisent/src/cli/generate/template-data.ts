import { posix } from "node:path";
import { camelize, type Names, names as namesOf, routeNameForPath } from "../../naming/index.js";
import type { InputParser } from "./attribute-types.js";
import type { Attribute, OnDelete } from "./attributes.js";
import {
  type DeclaredRouteData,
  type DeclaredRouteFlags,
  declaredRouteData,
  resourceOptionsSource,
} from "./declared-routes.js";
import { OWNER, type ResourceAccess } from "./resource-access.js";
import {
  fixtureValues,
  referenceVar,
  type TestSamples,
  testSamples,
  UNIQUE_HELPER,
} from "./test-samples.js";

/** The operations of a web resource, in Buffalo's test-stub order; an API resource has the first five. */
export const WEB_OPERATIONS = [
  "List",
  "Show",
  "Create",
  "Update",
  "Destroy",
  "New",
  "Edit",
] as const;

/** An attribute with what the templates print for it. */
export interface TemplateAttribute extends Attribute {
  readonly zod: string;
  readonly column: string;
  /** The migration's column: `t.decimal("price", 10, 2)`, `t.references("post_id", "posts")`. */
  readonly columnCall: string;
  readonly nullable: boolean;
  readonly input: string;
  readonly display: string;
  /** The `type` of its `<input>`. */
  readonly htmlType: string;
  /** The element id in the form: `widget_title`. */
  readonly id: string;
  /**
   * The JSX expression showing the value of the record variable: `widget.title`; an image as its
   * thumbnail linked to the original (`<FileLink ... variant="thumb" />`), never the original
   * at full size.
   */
  readonly view: string;
  /**
   * The same in the list: images as thumbnails (`<FileLink ... variant="thumb" />`), a reference
   * as its record's label (`book.author.name`), the records of the page loaded in one query
   * (`preload`).
   */
  readonly listView: string;
}

/** A referenced record the list shows by its label, loaded with `Model.preload` (HTML only). */
export interface PreloadData {
  /** The key `preload` attaches it under: the foreign key without `_id` (`author`). */
  readonly key: string;
  /** Its model: `Author`. */
  readonly model: string;
  /** Its field shown in the list (`name`). */
  readonly label: string;
  /** Its records in words: `authors`. */
  readonly plural: string;
  /** The full tests' variable holding the one they create (`author`). */
  readonly testVar: string;
  /** A `:uniq` reference: each record has its own, not the tests' `testVar`. */
  readonly unique: boolean;
}

/** The parent of a nested resource, as the child's files refer to it. */
export interface ParentData {
  readonly names: Names;
  readonly model: string;
  readonly var: string;
  readonly human: string;
  readonly table: string;
  readonly paramKey: string;
  /** The foreign key column: `widget_id`. */
  readonly foreignKey: string;
  /** The parent's variable in src/app.ts: `widgets`. */
  readonly appVar: string;
  /** The migration's foreign key: `t.references("widget_id", "widgets")` (restrict unless `--cascade`). */
  readonly referenceCall: string;
  /** The parent's field that names it (`name`), else `id`: "Books of {author.name}". */
  readonly label: string;
  /** The route name of the parent's page: `authorPath`. */
  readonly showRoute: string;
}

/** The owner of an owned resource's records, as its files refer to it. */
export interface OwnerData {
  /** `user_id` */
  readonly foreignKey: string;
  /** `users` */
  readonly table: string;
  /** `User` */
  readonly model: string;
  /** The owner model from the actions test: `../models/user.js`. */
  readonly testImport: string;
}

/** Everything the resource templates read (`it` in the template files). */
export interface TemplateData {
  readonly command: string;
  readonly api: boolean;
  readonly names: Names;
  readonly model: {
    readonly name: string;
    readonly var: string;
    readonly varPlural: string;
    readonly singular: string;
    readonly file: string;
    readonly table: string;
    readonly human: string;
    readonly humanPlural: string;
    readonly i18nKey: string;
    /** `id, title, description, created_at, updated_at` */
    readonly columnList: string;
    /** `title, description, ` (before the timestamps). */
    readonly fieldList: string;
  };
  readonly resource: {
    readonly className: string;
    readonly paramKey: string;
    readonly fileBase: string;
    /** Its variable in src/app.ts: `widgets`, `adminWidgets`, `widgetImages`. */
    readonly appVar: string;
    /** The path given to `.resource()`: `/widgets`, or `/images` under a parent. */
    readonly mountPath: string;
    /** The full collection path: `/widgets/{widget_id}/images`. */
    readonly collectionPath: string;
    readonly memberPath: string;
    /** The member route's path parameters as a type, for the typed context: `"widget_id" | "image_id"`. */
    readonly paramKeys: string;
  };
  readonly routes: {
    readonly list: string;
    readonly new: string;
    readonly show: string;
    readonly edit: string;
  };
  readonly params: {
    /** Arguments of a collection path helper in a view: `""` or `{ widget_id: widget.id }`. */
    readonly collection: string;
    /** Arguments of a member path helper in a view: `{ widget_id: widget.id }`. */
    readonly member: string;
  };
  /** `widget_id: widget.id` for the redirect after Create (`image_id: image.id` nested). */
  readonly memberParams: string;
  /** The member's path parameters from the `found` variable (a destroy that was refused). */
  readonly foundParams: string;
  /** The same after Update, from the `updated` record. */
  readonly updatedParams: string;
  /** `widget={widget} ` for views of a nested resource, else empty. */
  readonly parentProp: string;
  readonly parent: ParentData | undefined;
  /** Who may use it: `owned` (each signed-in user their own records), `shared` or `public`. */
  readonly access: ResourceAccess;
  /** The owner column of an `owned` resource (`user_id` to `users`), else undefined. */
  readonly owner: OwnerData | undefined;
  /** The User model (made by `wisent g auth`) from the actions test: `../models/user.js`. */
  readonly ownerTestImport: string;
  readonly attrs: readonly TemplateAttribute[];
  /** Attributes with a column in the index table (long text is left out, as Buffalo does). */
  readonly tableAttrs: readonly TemplateAttribute[];
  readonly parsers: readonly InputParser[];
  /** The generated tests' `unique()` helper (see `TestSamples.usesUnique`). */
  readonly uniqueHelper: string;
  /** What the model imports from wisent, sorted as Biome does: `decimal, defineModel, type RecordOf`. */
  readonly modelImports: string;
  /** The fields of the model's `unique` option (`["isbn"]`), empty for none. */
  readonly uniqueFields: readonly string[];
  /**
   * The model's `unique` entries as source: `"isbn"`, or on an owned resource
   * `{ field: "name", scope: "user_id" }` (unique per user; `:uniq{global}` keeps it global).
   */
  readonly uniqueRules: readonly string[];
  /** Some `unique` entry is per user (`scope`). */
  readonly uniquePerOwner: boolean;
  /** The model's `references` option: foreign keys and their tables (the parent's first). */
  readonly referenceTables: readonly (readonly [string, string])[];
  /**
   * The `references` entries as source: `author_id: "authors"`, or for an owned resource's
   * reference to another owned resource `project_id: { table: "projects", ownedBy: "user_id" }`
   * (only the signed-in user's own project).
   */
  readonly referenceRules: readonly string[];
  /** Some reference checks the owner (`ownedBy`). */
  readonly referencesOwned: boolean;
  readonly formHelpers: readonly string[];
  /** The rules the model imports from `wisent` (`attachment`, `decimal`), sorted. */
  readonly modelRules: readonly string[];
  /** Some attribute holds files: the form is multipart, the pages show them with `FileLink`. */
  readonly hasFiles: boolean;
  readonly operations: readonly string[];
  readonly operationRoutes: Readonly<Record<string, string>>;
  /** A singular resource (`app.singleton`): no List, no id. */
  readonly singular: boolean;
  /** The App method that declares it: `resource` or `singleton`. */
  readonly declaration: "resource" | "singleton";
  /** Declared member and collection routes: one handler method and one test each. */
  readonly declared: readonly DeclaredRouteData[];
  /** The options argument of the resource's line in src/app.ts: `, { member: { ... } }` or `""`. */
  readonly resourceOptions: string;
  /** Live pages (`--live`): the list and record pages render `<LiveUpdates />`. */
  readonly live: boolean;
  readonly imports: Readonly<Record<string, string>>;
  /** The model imports of the actions file (own model and parent's), sorted by path as Biome does. */
  readonly actionsModelImports: readonly string[];
  /** The model type imports of a view (own model and parent's), sorted by path. */
  readonly viewModelImports: readonly string[];
  /** The list's model type imports: a view's, and the models of `preloads`. */
  readonly indexModelImports: readonly string[];
  /** The references the HTML list shows by label, each loaded for a page in one query. */
  readonly preloads: readonly PreloadData[];
  /** The list's record type: `Book`, or with its preloaded records `(Book & { author: Author })`. */
  readonly listRecordType: string;
  /** The values of passing generated tests (`--tests=full`); undefined for the failing stubs. */
  readonly tests: TestSamples | undefined;
}

/** A record the full tests create first, by its model's names and attributes. */
export interface FixtureModel {
  readonly names: Names;
  readonly attributes: readonly Attribute[];
  /** The test's variable: the parent's `widget`, or a reference's `post`. */
  readonly var: string;
  /** Its resource is owned: the tests create it as their signed-in user's (`user_id: ada.id`). */
  readonly owned?: boolean | undefined;
}

const HTML_TYPES: Record<string, string> = {
  text: "text",
  number: "number",
  decimal: "number",
  date: "date",
  time: "time",
  "datetime-local": "datetime-local",
};

/** `t.references(...)`: restrict (the default, left out) or `{ onDelete: "cascade" }`. */
function referenceCall(column: string, table: string, onDelete: OnDelete): string {
  const options = onDelete === "cascade" ? ', { onDelete: "cascade" }' : "";
  return `t.references(${JSON.stringify(column)}, ${JSON.stringify(table)}${options})`;
}

/**
 * The `createTable` call declaring an attribute's column, with its index (`.unique()`, per owner
 * `.unique({ scope: "user_id" })`, `.index()`).
 */
function columnCall(attr: Attribute, uniqueScope?: string): string {
  const unique = uniqueScope ? `.unique({ scope: ${JSON.stringify(uniqueScope)} })` : ".unique()";
  const modifiers =
    (attr.type.nullable ? ".nullable()" : "") +
    (attr.unique ? unique : "") +
    // A foreign key has its index already.
    (attr.index && !attr.references ? ".index()" : "");
  if (attr.references) {
    return referenceCall(attr.name, attr.references.table, attr.references.onDelete) + modifiers;
  }
  const args = [JSON.stringify(attr.name), ...(attr.type.columnArgs ?? []).map(String)];
  return `t.${attr.type.column}(${args.join(", ")})${modifiers}`;
}

function viewExpression(attr: Attribute, record: string, variant = ""): string {
  const value = `${record}.${attr.name}`;
  const shown = variant ? ` variant="${variant}"` : "";
  switch (attr.type.display) {
    case "boolean":
      return `${value} ? "Yes" : "No"`;
    case "timestamp":
      return attr.type.nullable ? `${value}?.toISOString()` : `${value}.toISOString()`;
    case "json":
      return `JSON.stringify(${value})`;
    case "attachment":
      return `<FileLink file={${value}}${shown} />`;
    case "attachments":
      return `${value}.map((file) => <FileLink file={file}${shown} />)`;
    default:
      return value;
  }
}

/** A relative ESM import specifier from one app file to another (`.ts`/`.tsx` become `.js`). */
function importPath(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to).replace(/\.tsx?$/, ".js");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

/** The files of a resource, relative to the app; the plan and the templates share them. */
export function resourcePaths(names: Names, api: boolean, parent?: Names) {
  return {
    model: `src/models/${names.modelFileBase}.ts`,
    parentModel: parent ? `src/models/${parent.modelFileBase}.ts` : undefined,
    actions: `src/actions/${names.fileBase}.${api ? "ts" : "tsx"}`,
    templates: `src/templates/${names.templateFolder}`,
    app: "src/app.ts",
  };
}

/** The variable a resource gets in src/app.ts: `widgets`, `adminWidgets`, nested `widgetImages`. */
export function appVariable(names: Names, parent?: Names): string {
  return parent ? camelize(`${parent.singular}_${names.fileBase}`) : camelize(names.fileBase);
}

/** Options of {@link templateData}. */
export interface TemplateDataOptions {
  readonly names: Names;
  readonly attributes: readonly Attribute[];
  readonly parent?: Names | undefined;
  /** The parent's variable in src/app.ts when not the one generate gives it (`library`). */
  readonly parentVar?: string | undefined;
  /** What deleting the parent does to its nested records (`--cascade`); default restrict. */
  readonly parentOnDelete?: OnDelete | undefined;
  /** The parent's field that names it on the nested pages; default `id`. */
  readonly parentLabel?: string | undefined;
  /** The field naming each referenced record in the list (`author_id` -> `name`), when known. */
  readonly referenceLabels?: Readonly<Record<string, string>> | undefined;
  readonly api: boolean;
  readonly command: string;
  /** Declared member and collection routes (`--member publish:post`). */
  readonly declared?: DeclaredRouteFlags | undefined;
  /** A singular resource (`app.singleton`, names from `singularNames`): no List, no id. */
  readonly singular?: boolean | undefined;
  /** Who may use it (default `public`). */
  readonly access?: ResourceAccess | undefined;
  /** Live pages (`--live`): `live: true`, and the list and record pages subscribe. */
  readonly live?: boolean | undefined;
  /** Full tests, with the records they create first; undefined for the stubs. */
  readonly fullTests?: { readonly fixtures: readonly FixtureModel[] } | undefined;
  /**
   * The foreign keys (the parent's included) whose records belong to their user (an owned
   * resource's): an owned resource checks them through its owner (`ownedBy` in `references`).
   */
  readonly ownedReferences?: ReadonlySet<string> | undefined;
}

/** Derives the templates' data from the resource's names (only `names()`), attributes and parent. */
export function templateData(options: TemplateDataOptions): TemplateData {
  const { names, attributes, api, command } = options;
  const parentNames = options.parent;
  const record = names.modelVar;
  const parent: ParentData | undefined = parentNames && {
    names: parentNames,
    model: parentNames.model,
    var: parentNames.modelVar,
    human: parentNames.human,
    table: parentNames.table,
    paramKey: parentNames.paramKey,
    foreignKey: parentNames.paramKey,
    appVar: options.parentVar ?? appVariable(parentNames),
    referenceCall: referenceCall(
      parentNames.paramKey,
      parentNames.table,
      options.parentOnDelete ?? "restrict",
    ),
    label: options.parentLabel ?? "id",
    showRoute: routeNameForPath(`${parentNames.memberPath}/`),
  };
  const mountPath = parent ? `/${names.plural}` : names.urlPath;
  const collectionPath = parent ? `${parentNames!.memberPath}${mountPath}` : names.urlPath;
  const singular = options.singular === true;
  const memberPath = singular ? collectionPath : `${collectionPath}/{${names.paramKey}}`;
  const routes = {
    list: routeNameForPath(`${collectionPath}/`, { collection: true }),
    new: routeNameForPath(`${collectionPath}/new/`),
    show: routeNameForPath(`${memberPath}/`),
    edit: routeNameForPath(`${memberPath}/edit/`),
  };
  const parentParam = parent ? `${parent.paramKey}: ${parent.var}.id` : "";
  const memberParam = (value: string) =>
    parent ? `${parentParam}, ${names.paramKey}: ${value}.id` : `${names.paramKey}: ${value}.id`;

  // Only in a web app's list; a reference to the parent's own model is left as it is.
  const labels: Readonly<Record<string, string>> = api ? {} : (options.referenceLabels ?? {});
  // An owned resource's unique values are unique per user (Rails' `scope: :user_id`).
  const ownerKey = (options.access ?? "public") === "owned" ? OWNER.foreignKey : undefined;
  const uniqueScope = (attr: Attribute) =>
    ownerKey !== undefined && attr.unique && !attr.uniqueGlobal ? ownerKey : undefined;
  const attrs: TemplateAttribute[] = attributes.map((attr) => ({
    ...attr,
    zod: attr.type.zod.replace("{p}", attr.type.parser ?? ""),
    column: attr.type.column,
    columnCall: columnCall(attr, uniqueScope(attr)),
    nullable: attr.type.nullable,
    input: attr.type.input,
    display: attr.type.display,
    htmlType: HTML_TYPES[attr.type.input] ?? "text",
    id: `${names.singular}_${attr.name}`,
    view: viewExpression(attr, record, "thumb"),
    listView: labels[attr.name]
      ? `${record}.${attr.name.replace(/_id$/, "")}.${labels[attr.name]}`
      : viewExpression(attr, record, "thumb"),
  }));
  const preloads: PreloadData[] = attributes.flatMap((attr) =>
    attr.references && labels[attr.name]
      ? [
          {
            key: attr.name.replace(/_id$/, ""),
            model: attr.references.model,
            label: labels[attr.name]!,
            plural: namesOf(attr.name.replace(/_id$/, "")).humanPlural.toLowerCase(),
            testVar: referenceVar(attr),
            unique: attr.unique,
          },
        ]
      : [],
  );
  const parsers = [...new Set(attributes.flatMap((a) => (a.type.parser ? [a.type.parser] : [])))];
  const formHelpers = new Set<string>();
  for (const attr of attrs) {
    if (attr.input === "file") continue;
    if (attr.input === "checkbox") formHelpers.add("checked");
    else if (attr.display === "timestamp") formHelpers.add("dateTime");
    else if (attr.display === "json") formHelpers.add("json");
    else formHelpers.add("text");
  }

  const paths = resourcePaths(names, api, parentNames);
  const view = `${paths.templates}/index.tsx`;
  const testFile = `src/actions/${names.fileBase}.test.ts`;
  const operations = (api ? WEB_OPERATIONS.slice(0, 5) : [...WEB_OPERATIONS]).filter(
    (op) => !singular || op !== "List",
  );
  const access = options.access ?? "public";
  const owner: OwnerData | undefined =
    access === "owned"
      ? {
          foreignKey: OWNER.foreignKey,
          table: OWNER.table,
          model: OWNER.model,
          testImport: importPath(testFile, OWNER.modelPath),
        }
      : undefined;
  const fields = [
    ...(parent ? [parent.foreignKey] : []),
    ...(owner ? [owner.foreignKey] : []),
    ...attributes.map((a) => a.name),
  ];

  const referenceTables: (readonly [string, string])[] = [
    ...(parent ? [[parent.foreignKey, parent.table] as const] : []),
    ...attributes.flatMap((a) => (a.references ? [[a.name, a.references.table] as const] : [])),
  ];
  // A reference of an owned resource to another owned resource's records: the user's own only.
  const ownedReference = (field: string) =>
    ownerKey !== undefined && options.ownedReferences?.has(field) === true;

  const sortedImports = (entries: [string, string][], typeOnly: boolean) =>
    entries
      .sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, from]) => `import ${typeOnly ? "type " : ""}{ ${name} } from "${from}";`);
  const modelsFrom = (file: string): [string, string][] => [
    [names.model, importPath(file, paths.model)],
    ...(parent && paths.parentModel
      ? [[parent.model, importPath(file, paths.parentModel)] as [string, string]]
      : []),
  ];

  /** `models` and the preloaded references' models (once each), imported from `file`. */
  const withPreloaded = (models: [string, string][], file: string): [string, string][] => {
    const extra = preloads
      .filter((p) => !models.some(([name]) => name === p.model))
      .map((p): [string, string] => [
        p.model,
        importPath(file, `src/models/${namesOf(p.key).modelFileBase}.ts`),
      ]);
    return [...models, ...extra.filter(([name], i) => extra.findIndex(([n]) => n === name) === i)];
  };

  // The rules the model file imports from wisent (`attachment`, `attachments`, `decimal`).
  const modelRules = [
    ...new Set(attributes.flatMap((a) => (a.type.rule ? [a.type.rule] : []))),
  ].sort();
  return {
    command,
    api,
    names,
    model: {
      name: names.model,
      var: record,
      varPlural: names.modelVarPlural,
      singular: names.singular,
      file: names.modelFileBase,
      table: names.table,
      human: names.human,
      humanPlural: names.humanPlural,
      i18nKey: names.i18nKey,
      columnList: ["id", ...fields, "created_at", "updated_at"].join(", "),
      fieldList: fields.map((f) => `${f}, `).join(""),
    },
    resource: {
      className: names.resourceClass,
      paramKey: names.paramKey,
      fileBase: names.fileBase,
      appVar: appVariable(names, parentNames),
      mountPath,
      collectionPath,
      memberPath,
      paramKeys: [...memberPath.matchAll(/\{(\w+)\}/g)].map((m) => `"${m[1]}"`).join(" | "),
    },
    routes,
    params: {
      collection: parent ? `{ ${parentParam} }` : "",
      member: `{ ${memberParam(record)} }`,
    },
    memberParams: memberParam(record),
    foundParams: memberParam("found"),
    updatedParams: parent
      ? `${parentParam}, ${names.paramKey}: updated.id`
      : `${names.paramKey}: updated.id`,
    parentProp: parent ? `${parent.var}={${parent.var}} ` : "",
    parent,
    access,
    owner,
    ownerTestImport: importPath(testFile, OWNER.modelPath),
    attrs,
    tableAttrs: attrs.filter((a) => !a.type.long),
    parsers,
    uniqueHelper: UNIQUE_HELPER,
    modelImports: [...modelRules, "defineModel", "type RecordOf"].join(", "),
    uniqueFields: attributes.filter((a) => a.unique).map((a) => a.name),
    uniqueRules: attributes
      .filter((a) => a.unique)
      .map((a) => {
        const scope = uniqueScope(a);
        return scope ? `{ field: "${a.name}", scope: "${scope}" }` : `"${a.name}"`;
      }),
    uniquePerOwner: attributes.some((a) => uniqueScope(a) !== undefined),
    referenceTables,
    referenceRules: referenceTables.map(([field, table]) =>
      ownedReference(field)
        ? `${field}: { table: "${table}", ownedBy: "${ownerKey}" }`
        : `${field}: "${table}"`,
    ),
    referencesOwned: referenceTables.some(([field]) => ownedReference(field)),
    formHelpers: [...formHelpers],
    modelRules,
    hasFiles: attributes.some((a) => a.type.input === "file"),
    operations,
    declared: declaredRouteData(options.declared ?? {}, collectionPath, memberPath),
    resourceOptions: resourceOptionsSource(options.declared ?? {}, [
      ...accessOptions(access),
      ...(options.live ? ["live: true"] : []),
    ]),
    live: options.live === true,
    singular,
    declaration: singular ? "singleton" : "resource",
    operationRoutes: {
      List: `GET ${collectionPath}`,
      Show: `GET ${memberPath}`,
      Create: `POST ${collectionPath}`,
      Update: `PUT ${memberPath}`,
      Destroy: `DELETE ${memberPath}`,
      New: `GET ${collectionPath}/new`,
      Edit: `GET ${memberPath}/edit`,
    },
    imports: {
      actionsToTemplates: importPath(paths.actions, paths.templates + "/x.ts").replace(
        /\/x\.js$/,
        "",
      ),
      templatesToParentModel: paths.parentModel ? importPath(view, paths.parentModel) : "",
      templatesToModel: importPath(view, paths.model),
    },
    actionsModelImports: sortedImports(
      withPreloaded(modelsFrom(paths.actions), paths.actions),
      false,
    ),
    viewModelImports: sortedImports(modelsFrom(view), true),
    indexModelImports: sortedImports(withPreloaded(modelsFrom(view), view), true),
    preloads,
    listRecordType:
      preloads.length === 0
        ? names.model
        : `(${names.model} & { ${preloads.map((p) => `${p.key}: ${p.model}`).join("; ")} })`,
    tests:
      options.fullTests &&
      testSamples(
        attributes,
        options.fullTests.fixtures.map((f) => ({
          model: f.names.model,
          var: f.var,
          importPath: importPath(testFile, `src/models/${f.names.modelFileBase}.ts`),
          values: fixtureValues(f.attributes, f.owned ? `${OWNER.foreignKey}: ada.id` : undefined),
          owned: f.owned,
          bobValues: f.owned
            ? fixtureValues(f.attributes, `${OWNER.foreignKey}: bob.id`)
            : undefined,
        })),
        [...(parent ? [parent.foreignKey] : []), ...(owner ? [owner.foreignKey] : [])],
        {
          references: new Set(referenceTables.map(([f]) => f).filter(ownedReference)),
          // Not a reference: Ada's referenced record is not Bob's to point at.
          uniqueFields: attributes
            .filter((a) => uniqueScope(a) !== undefined && !a.references)
            .map((a) => a.name),
        },
      ),
  };
}

/** The options of src/app.ts's line that say who may use the resource. */
function accessOptions(access: ResourceAccess): string[] {
  if (access === "owned") return [`ownedBy: "${OWNER.foreignKey}"`];
  if (access === "shared") return ["authenticate: true"];
  return [];
}
