/**
 * The generator's placeholder syntax: `@@name@@`. It cannot collide with anything an app's files
 * use at run time (JSX braces, i18next's `{{name}}`, template literals), so templates need no
 * escaping.
 * @module
 */

const PLACEHOLDER = /@@([A-Za-z][A-Za-z0-9]*)@@/g;

/**
 * Replaces every `@@key@@` with `vars[key]`; throws naming the template and the key when a
 * placeholder has no value (a template bug must not reach an app as literal `@@key@@`).
 * @example renderTemplate('{ "name": "@@name@@" }', { name: "shop" }) // '{ "name": "shop" }'
 */
export function renderTemplate(
  text: string,
  vars: Readonly<Record<string, string>>,
  source = "template",
): string {
  return text.replace(PLACEHOLDER, (_match, key: string) => {
    const value = vars[key];
    if (value === undefined) throw new Error(`${source}: no value for placeholder @@${key}@@`);
    return value;
  });
}

/**
 * The output path of a template file: the `.tpl` suffix dropped and a leading `dot-` in any
 * segment turned into `.` (npm drops `.gitignore` from published packages, so templates cannot
 * be named that way).
 * @example outputPath("dot-gitignore.tpl") // ".gitignore"
 * @example outputPath("src/app.ts.tpl") // "src/app.ts"
 */
export function outputPath(templatePath: string): string {
  return templatePath
    .replace(/\.tpl$/, "")
    .split("/")
    .map((segment) => segment.replace(/^dot-/, "."))
    .join("/");
}
