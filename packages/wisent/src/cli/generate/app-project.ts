import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "./usage-error.js";

/** The app a generator works in. */
export interface AppProject {
  /** Its root directory. */
  readonly dir: string;
  /** Its `src/app.ts` as it is now. */
  readonly appSource: string;
  /** An API app (`new App({ ..., api: true })`): no views, no locale files. */
  readonly api: boolean;
}

/**
 * Reads the app in `dir`. Throws a {@link UsageError} when there is none (no `src/app.ts`), so
 * generators run only inside an app made by `wisent new`.
 */
export function readAppProject(dir: string): AppProject {
  const appFile = join(dir, "src/app.ts");
  if (!existsSync(appFile)) {
    throw new UsageError(
      `no src/app.ts in ${dir}: run this inside an app made by "wisent new" (its root folder)`,
    );
  }
  const appSource = readFileSync(appFile, "utf8");
  return { dir, appSource, api: /new\s+App\(\s*\{[^}]*\bapi\s*:\s*true/.test(appSource) };
}

/** Whether `src/app.ts` declares a resource class (imports it or makes one). */
export function declaresResource(appSource: string, resourceClass: string): boolean {
  return new RegExp(
    `\\bnew\\s+${resourceClass}\\s*\\(|import\\s*\\{[^}]*\\b${resourceClass}\\b`,
  ).test(appSource);
}
