import { migrationFileName } from "../../data/migrations.js";
import type { Names } from "../../naming/index.js";
import type { Attribute, OnDelete } from "./attributes.js";
import type { DeclaredRouteFlags } from "./declared-routes.js";
import type { ResourceAccess } from "./resource-access.js";
import { type TemplateData, type TemplateDataOptions, templateData } from "./template-data.js";

/** What a generated file is, for the plan printed by `--dry-run` and the order of destroy. */
export type FileGroup = "model" | "migration" | "actions" | "templates" | "locales" | "tests";

/** One file of the plan: the template (under templates/resource/) and where it goes in the app. */
export interface PlannedFile {
  readonly template: string;
  readonly path: string;
  readonly group: FileGroup;
}

/**
 * A line inserted above a marker comment (removed again by destroy): src/app.ts's import and
 * declaration, and a web resource's links in the layout's nav, on the home page and on its
 * parent's page.
 */
export interface AppEdit {
  readonly path: string;
  readonly marker: string;
  readonly line: string;
  /** Skipped when the file or its marker is missing (an app made before the marker existed). */
  readonly optional?: boolean;
}

/** The marker comments of src/app.ts that generated lines go above. */
export const IMPORTS_MARKER = "// wisent:imports";
export const RESOURCES_MARKER = "// wisent:resources";
/** The markers of the links a web resource adds (JSX comments). */
export const LINKS_MARKER = "// wisent:links";
export const CHILD_LINKS_MARKER = "{/* wisent:children";

/** What to generate. */
export interface ResourceRequest {
  readonly names: Names;
  readonly attributes: readonly Attribute[];
  readonly parent?: Names | undefined;
  /** The parent's variable in src/app.ts, when not the one generate gives it. */
  readonly parentVar?: string | undefined;
  /** `--cascade`: the nested records are deleted with their parent (default: restrict). */
  readonly parentOnDelete?: OnDelete | undefined;
  /** The parent's field that names it on the nested pages (`name`); its id when undefined. */
  readonly parentLabel?: string | undefined;
  /** The field naming each referenced record (`author_id` -> `name`) in the list, when known. */
  readonly referenceLabels?: Readonly<Record<string, string>> | undefined;
  /** The foreign keys to records of an owned resource (checked through the owner). */
  readonly ownedReferences?: ReadonlySet<string> | undefined;
  /** Declared member and collection routes (`--member publish:post`). */
  readonly declared?: DeclaredRouteFlags | undefined;
  /** A singular resource (`names` from `singularNames`), declared with `app.singleton`. */
  readonly singular?: boolean | undefined;
  /** The app is an API app (`new App({ ..., api: true })`). */
  readonly api: boolean;
  /** Who may use it (default `public`): see `resource-access.ts`. */
  readonly access?: ResourceAccess | undefined;
  /** Live pages (`--live`). */
  readonly live?: boolean | undefined;
  readonly skipModel?: boolean;
  readonly skipMigration?: boolean;
  readonly skipTemplates?: boolean;
  /** The model exists already (made for another resource): no model, migration or model test. */
  readonly reuseModel?: boolean;
  /** The command line, for the files' headers. */
  readonly command: string;
  /** Passing tests (`--tests=full`) with the records they create first; else failing stubs. */
  readonly fullTests?: TemplateDataOptions["fullTests"];
  /** The migration's file name (`20240501123000_create_widgets.ts`), or the time to name it by. */
  readonly migration: string | Date;
}

/** The manifest of one resource: the files and app.ts lines that generate writes and destroy removes. */
export interface ResourcePlan {
  readonly request: ResourceRequest;
  readonly data: TemplateData;
  readonly files: readonly PlannedFile[];
  readonly edits: readonly AppEdit[];
}

/** Which actions template: full handlers with views, JSON/XML handlers, or stubs without a model. */
function actionsVariant(request: ResourceRequest): "web" | "api" | "standard" {
  // A singular resource is generated without a model: which record it is (the signed-in
  // user's profile, the site's settings) is the app's to say.
  if (request.skipModel || request.singular) return "standard";
  return request.api || request.skipTemplates ? "api" : "web";
}

/**
 * The manifest of a resource: every file (template and destination) and every src/app.ts line.
 * `generate` writes it, `--dry-run` prints it and `destroy` removes it, so they cannot drift.
 *
 * @example
 * resourcePlan({ names: names("widget"), attributes: [], api: false, command: "wisent g r widget",
 *   migration: new Date() }).files.map((f) => f.path);
 * // ["src/models/widget.ts", "src/models/widget.test.ts", "migrations/..._create_widgets.ts", ...]
 */
export function resourcePlan(request: ResourceRequest): ResourcePlan {
  const { names, parent } = request;
  const variant = actionsVariant(request);
  const views = variant === "web";
  const data = templateData({
    names,
    attributes: request.attributes,
    parent,
    parentVar: request.parentVar,
    parentOnDelete: request.parentOnDelete,
    parentLabel: request.parentLabel,
    referenceLabels: request.referenceLabels,
    ownedReferences: request.ownedReferences,
    api: variant === "api" || request.api,
    access: request.access,
    live: request.live,
    command: request.command,
    declared: request.declared,
    singular: request.singular,
    fullTests: request.fullTests,
  });
  const migration =
    typeof request.migration === "string"
      ? request.migration
      : migrationFileName(names.migrationName, request.migration);
  const place = (template: string): string =>
    template
      .replace(/^[a-z-]+\//, "")
      .replace(/\.eta$/, "")
      .replace("__model__", names.modelFileBase)
      .replace("__actions__", names.fileBase)
      .replace("__folder__", names.templateFolder)
      .replace("__migration__", migration.replace(/\.ts$/, ""));
  const files: PlannedFile[] = [];
  const add = (group: FileGroup, template: string) =>
    files.push({ template, path: place(template), group });

  const ownModel = !request.skipModel && !request.singular && !request.reuseModel;
  if (ownModel) {
    add("model", "shared/src/models/__model__.ts.eta");
    if (!request.skipMigration) add("migration", "shared/migrations/__migration__.ts.eta");
  }
  add("actions", `${variant}/src/actions/__actions__.${variant === "web" ? "tsx" : "ts"}.eta`);
  if (views) {
    for (const view of ["index", "show", "new", "edit", "_form"]) {
      add("templates", `web/src/templates/__folder__/${view}.tsx.eta`);
    }
    add("locales", "web/src/locales/__actions__.en-US.json.eta");
  }
  const tests = request.fullTests ? "tests-full" : "shared";
  add("tests", `${tests}/src/actions/__actions__.test.ts.eta`);
  if (ownModel) add("tests", `${tests}/src/models/__model__.test.ts.eta`);

  const actionsPath = files.find((f) => f.group === "actions")!.path;
  const edits: AppEdit[] = [
    // The route that serves stored files, declared once, by the first resource with a file
    // (a line already present is left alone), and kept by destroy for the others.
    ...(data.hasFiles ? [STORED_FILES_EDIT] : []),
    {
      path: "src/app.ts",
      marker: IMPORTS_MARKER,
      line: `import { ${names.resourceClass} } from "./${actionsPath.replace(/^src\//, "").replace(/\.tsx?$/, ".js")}";`,
    },
    {
      path: "src/app.ts",
      marker: RESOURCES_MARKER,
      line: `export const ${data.resource.appVar} = ${parent ? data.parent!.appVar : "app"}.${data.declaration}("${data.resource.mountPath}", new ${names.resourceClass}()${data.resourceOptions});`,
    },
  ];
  if (views) edits.push(...linkEdits(data));
  return { request, data, files, edits };
}

const STORED_FILES_EDIT: AppEdit = {
  path: "src/app.ts",
  marker: RESOURCES_MARKER,
  line: "app.storedFiles(); // GET /files/...: records' attachments, from the storage STORAGE_URL names",
};

/** Links to a web resource: in the nav and on the home page (resource-links.tsx), or on its parent's page when nested. */
function linkEdits(data: TemplateData): AppEdit[] {
  const label = data.model.humanPlural;
  if (data.parent) {
    const { parent } = data;
    return [
      {
        path: `src/templates/${parent.names.templateFolder}/show.tsx`,
        marker: CHILD_LINKS_MARKER,
        line: `<a href={paths.${data.routes.list}(${data.params.collection})}>${label}</a>{" "}`,
        optional: true,
      },
    ];
  }
  return [
    {
      path: "src/templates/resource-links.tsx",
      marker: LINKS_MARKER,
      line: `{ label: ${JSON.stringify(label)}, href: (paths) => paths.${data.routes.list}() },`,
      optional: true,
    },
  ];
}
