import { usePage } from "wisent/jsx";
import type * as Routes from "../app.js";

type Exported = typeof Routes;
/** The typed `paths` of every resource group `src/app.ts` exports (`widgets.paths`, ...). */
type GroupPaths = {
  [K in Exported extends unknown ? keyof Exported : never]: K extends "app"
    ? never
    : Exported[K] extends { readonly paths: infer P }
      ? P
      : never;
}[keyof Exported];
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** Every named route's path helper: `rootPath()`, `widgetsPath()`, `widgetPath({ widget_id })`, ... */
export type AppPaths = Intersect<GroupPaths> & { rootPath(): string };

// Route names are typed everywhere they are written: `c.redirectTo(303, "widgetPth")` fails tsc.
declare module "wisent" {
  interface Register {
    paths: AppPaths;
  }
}

/**
 * The app's path helpers, for templates (rendered inside `c.respond`). Typed from the resource
 * groups `src/app.ts` exports (a type-only import, so no import cycle at run time) and built by
 * the running app's route table, so a renamed route fails type-checking, not in production.
 *
 * @example
 * const paths = usePaths();
 * <a href={paths.widgetPath({ widget_id: widget.id })}>View</a>
 */
export function usePaths(): AppPaths {
  return usePage().c.get("wisent").paths as unknown as AppPaths;
}
