/**
 * Rendering `wisent new`'s templates: Eta, as every generator's (`<%= it.name %>`; `<% %>` never
 * occurs in TypeScript, JSX, JSON or Markdown, so templates need no escaping).
 * @module
 */
import { renderTemplate as renderEta } from "../generate/render.js";

/**
 * `vars` as Eta's `it`, throwing on a name it does not hold: a template bug must not reach an app
 * as the text `undefined`.
 */
function strictVars(vars: Readonly<Record<string, string>>, source: string): object {
  return new Proxy(vars, {
    get(target, key) {
      if (typeof key === "string" && !Object.hasOwn(target, key)) {
        // Internal: the templates are Wisent's own; a missing value is a bug of the generator.
        throw new Error(`${source}: no value for it.${key}`);
      }
      return Reflect.get(target, key);
    },
  });
}

/**
 * Renders the template file `template` (a path under `root`) with `vars`; throws naming the
 * template and the name when it reads a value `vars` lacks.
 * @example renderAppTemplate(APP_TEMPLATES, "common/package.json.eta", vars) // '{\n  "name": "shop", ...'
 */
export function renderAppTemplate(
  root: string,
  template: string,
  vars: Readonly<Record<string, string>>,
): string {
  return renderEta(template, strictVars(vars, template), root);
}

/**
 * The output path of a template file: the `.eta` suffix dropped and a leading `dot-` in any
 * segment turned into `.` (npm drops `.gitignore` from published packages, so templates cannot
 * be named that way).
 * @example outputPath("dot-gitignore.eta") // ".gitignore"
 * @example outputPath("src/app.ts.eta") // "src/app.ts"
 */
export function outputPath(templatePath: string): string {
  return templatePath
    .replace(/\.eta$/, "")
    .split("/")
    .map((segment) => segment.replace(/^dot-/, "."))
    .join("/");
}
