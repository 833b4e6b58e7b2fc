/**
 * `npm run docs:api`: writes the API reference, one page per subpath of the `wisent` package
 * (`wisent`, `wisent/db`, `wisent/auth`, ...), into docs/reference/api/ with TypeDoc and
 * typedoc-plugin-markdown, from the TSDoc of the TypeScript sources (no build needed).
 *
 * The subpaths come from packages/wisent/package.json's `exports` (each one's `types` file names
 * its source), so a new subpath gets its page without an edit here. The pages are generated, not
 * committed (.gitignore): `npm run docs:build` runs this first, and VitePress then fails the build
 * on a link that leads nowhere (check-anchors.mjs on one to a heading a page lacks); TypeDoc
 * fails it first on a `{@link}` that names nothing.
 * scripts/docs/api-reference.test.ts checks that every subpath has its page.
 */
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { repositoryWebUrl } from "./repository-links.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE = `${ROOT}packages/wisent/`;

/** Where `npm run docs:api` writes the pages (git-ignored). */
export const API_REFERENCE_DIR = `${ROOT}docs/reference/api`;

/**
 * The subpaths that are not an API a person imports, so get no page: the JSX runtimes are
 * imported by the TypeScript compiler (`jsxImportSource`), `create-app` by `npm create wisent`.
 */
export const UNDOCUMENTED_SUBPATHS = new Map([
  ["./jsx/jsx-runtime", "imported by the compiler for `jsxImportSource: wisent/jsx`"],
  ["./jsx/jsx-dev-runtime", "imported by the compiler for `jsxImportSource: wisent/jsx`"],
  ["./create-app", "the entry of `npm create wisent`, not an API"],
  ["./package.json", "the package's manifest"],
]);

/**
 * One entry per documented subpath of package.json's `exports`, in its order: the import
 * specifier (`wisent/db`, also the page's path under docs/reference/api/) and the TypeScript
 * source its `types` file is built from.
 */
export function apiEntries(packageJson = readPackageJson()) {
  return Object.entries(packageJson.exports)
    .filter(([subpath]) => !UNDOCUMENTED_SUBPATHS.has(subpath))
    .map(([subpath, target]) => {
      const types = typeof target === "string" ? target : target.types;
      const source = /^\.\/dist\/(.+)\.d\.ts$/.exec(types ?? "");
      if (!source) throw new Error(`exports["${subpath}"] has no ./dist/*.d.ts types: ${types}`);
      const specifier =
        subpath === "." ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`;
      return { specifier, source: `${PACKAGE}src/${source[1]}.ts` };
    });
}

/** The docs sidebar's items for the API pages (docs/.vitepress/config.mts). */
export function apiSidebarItems(packageJson = readPackageJson()) {
  return apiEntries(packageJson).map(({ specifier }) => ({
    text: specifier,
    link: `/reference/api/${specifier}`,
  }));
}

/**
 * Runs TypeDoc over the subpaths' sources and writes one Markdown page per subpath, plus
 * `index.md` listing them, into `out` (emptied first). Rejects on any TypeDoc warning (a broken
 * `{@link}`, a tag TypeDoc does not know), so a mistake in a doc comment fails the docs build.
 */
export async function writeApiReference(out = API_REFERENCE_DIR) {
  // Loaded here, not at the top: the docs site's config imports this module for the sidebar.
  const { Application, Converter, ReflectionKind } = await import("typedoc");
  const { default: ts } = await import("typescript");
  const entries = apiEntries();
  // The root re-exports, for one release, names that moved to a subpath: they are documented on
  // the subpath's page, not a second time on the root's.
  const movedFromRoot = exportedNames(ts, `${PACKAGE}src/entries/deprecated-root.ts`);
  rmSync(out, { recursive: true, force: true });
  const app = await Application.bootstrapWithPlugins({
    // The root last: a name exported by two entries is documented on the first one's page.
    entryPoints: [...entries.slice(1), entries[0]].map((entry) => entry.source),
    tsconfig: `${PACKAGE}tsconfig.build.json`,
    // The VitePress theme writes anchors as VitePress makes them; we write the sidebar ourselves.
    plugin: ["typedoc-plugin-markdown", "typedoc-vitepress-theme"],
    docsRoot: `${ROOT}docs`,
    sidebar: { autoConfiguration: false },
    out,
    basePath: ROOT,
    // Source links (`{path}`) are relative to this; the default is the entries' common folder.
    displayBasePath: ROOT,
    disableGit: true,
    sourceLinkTemplate: `${repositoryWebUrl(readRootPackageJson())}/blob/main/{path}#L{line}`,
    readme: "none",
    name: "API reference",
    router: "module",
    entryFileName: "index",
    hidePageHeader: true,
    hideBreadcrumbs: true,
    useCodeBlocks: true,
    // Each anchor as an <a id> too: the plugin counts `App.options` (a method) and `AppOptions`
    // (an interface) as one slug and numbers the second, which VitePress' heading ids do not.
    useHTMLAnchors: true,
    parametersFormat: "table",
    interfacePropertiesFormat: "table",
    classPropertiesFormat: "table",
    typeDeclarationFormat: "table",
    enumMembersFormat: "table",
    propertyMembersFormat: "table",
    excludePrivate: true,
    excludeProtected: false,
    excludeInternal: true,
    excludeExternals: true,
    sort: ["kind", "alphabetical"],
    // `npm run typecheck` checks the types; TypeDoc only reads them (and is twice as fast so).
    skipErrorChecking: true,
    treatWarningsAsErrors: true,
    treatValidationWarningsAsErrors: true,
    // Internal types a signature names (a column spec, a store's row) are shown by name.
    validation: {
      notExported: false,
      invalidLink: true,
      rewrittenLink: true,
      notDocumented: false,
    },
    logLevel: "Warn",
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const entry = entries.find((e) => sameFile(e.source, module.sources?.[0]?.fullFileName));
      if (!entry) continue;
      module.name = entry.specifier;
      if (entry.specifier === "wisent") {
        for (const child of [...(module.children ?? [])]) {
          if (movedFromRoot.has(child.name) && child.isReference()) {
            context.project.removeReflection(child);
          }
        }
      }
      removeInheritedFromDependencies(context.project, module);
    }
  });
  const project = await app.convert();
  if (!project) throw new Error("TypeDoc could not read the sources (see its messages above)");
  app.validate(project);
  await app.generateOutputs(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) {
    throw new Error("TypeDoc reported problems in the doc comments (listed above)");
  }
  return entries.map((entry) => ({ ...entry, file: `${out}/${entry.specifier}.md` }));
}

/**
 * Members an exported interface inherits from a dependency's type (`ResourceContext` extends
 * Hono's `Context`): Hono documents them, and copying its whole API onto our pages hides ours.
 */
function removeInheritedFromDependencies(project, reflection) {
  for (const child of [...(reflection.children ?? [])]) {
    const from = child.sources?.[0]?.fullFileName ?? "";
    if (child.inheritedFrom && from.includes("/node_modules/")) project.removeReflection(child);
    else removeInheritedFromDependencies(project, child);
  }
}

function sameFile(a, b) {
  return b !== undefined && a.replaceAll("\\", "/") === b.replaceAll("\\", "/");
}

/** The names a module's `export { ... } from` statements export (what `as` renames them to). */
function exportedNames(ts, file) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const names = new Set();
  for (const statement of source.statements) {
    const clause = ts.isExportDeclaration(statement) ? statement.exportClause : undefined;
    if (clause && ts.isNamedExports(clause)) {
      for (const element of clause.elements) names.add(element.name.text);
    }
  }
  return names;
}

function readPackageJson() {
  return JSON.parse(readFileSync(`${PACKAGE}package.json`, "utf8"));
}

function readRootPackageJson() {
  return JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pages = await writeApiReference();
  console.log(`wrote ${pages.length} API pages into docs/reference/api/`);
}
