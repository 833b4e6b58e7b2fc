import { WisentError } from "../base/wisent-error.js";
import type { UntypedPathHelper } from "../routes/route-registry.js";
import { usePage } from "./page.js";
import type { Register } from "./redirect.js";

/**
 * The app's path helpers as the type checker knows them: the `paths` it registers (`PathsOf`: `rootPath()`, `widgetsPath()`, `widgetPath({ widget_id })`, ...), else any
 * name.
 */
export type AppPaths = Register extends { paths: infer P }
  ? P
  : Readonly<Record<string, UntypedPathHelper>>;

/**
 * The app's path helpers, in a template (rendered inside `c.respond`): built by the running
 * app's route table and typed from the `paths` the app registers, so a renamed route fails
 * type-checking, not in production (Phoenix's verified routes).
 *
 * @returns the helpers of every named route
 * @throws WisentError `E_APP_MISCONFIGURED` outside a view rendered by `c.respond`, or in one
 *   rendered without an App
 * @example
 * const paths = usePaths();
 * <a href={paths.widgetPath({ widget_id: widget.id })}>View</a>
 */
export function usePaths(): AppPaths {
  const runtime = usePage().c.get("wisent");
  if (!runtime) {
    throw new WisentError("E_APP_MISCONFIGURED", "usePaths() needs a view rendered by an App");
  }
  return runtime.paths as unknown as AppPaths;
}
