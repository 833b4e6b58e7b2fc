import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { outputPath, renderAppTemplate } from "./render-template.js";

/** `packages/wisent/templates/app/`: `common/` plus `web/` or `api/` on top (same paths win). */
export const APP_TEMPLATES = fileURLToPath(new URL("../../../templates/app/", import.meta.url));

/** One file of a new app. */
export interface PlannedFile {
  /** Path inside the app, with `/` separators: `src/app.ts`. */
  path: string;
  /** Text rendered from an `.eta` template, or the bytes of a file copied as it is (`favicon.ico`). */
  contents: string | Uint8Array;
  /** Template it came from, relative to the templates folder: `web/src/app.ts.eta`. */
  template: string;
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"));
}

/**
 * Every file of a new app, rendered, sorted by path: the shared templates overlaid with the
 * variant's (`web` or `api`).
 * @example planApp("web", vars).map((f) => f.path) // [".env.example", ".gitignore", "README.md", ...]
 */
export function planApp(
  variant: "web" | "api",
  vars: Readonly<Record<string, string>>,
): PlannedFile[] {
  const byPath = new Map<string, string>();
  for (const layer of ["common", variant]) {
    for (const file of filesUnder(join(APP_TEMPLATES, layer))) {
      byPath.set(outputPath(file), `${layer}/${file}`);
    }
  }
  return [...byPath.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, template]) => ({
      path,
      template,
      contents: template.endsWith(".eta")
        ? renderAppTemplate(APP_TEMPLATES, template, vars)
        : readFileSync(join(APP_TEMPLATES, template)),
    }));
}
