/**
 * `require()` for the framework's own CommonJS dependencies that load on demand (the database
 * drivers, the XML parser): only an app that needs one pays for loading it.
 *
 * They are resolved from the framework's package folder wherever this code runs. Run from
 * `node_modules/wisent/dist`, that is where Node looks anyway; but `wisent build` bundles the
 * framework into the app's `dist/server.js`, from where the framework's dependencies are not always
 * reachable (a `file:` link to a checkout, an install that did not hoist them). There the lookup
 * falls back to the folder of the `wisent` package the app depends on.
 * @module
 */
import { createRequire } from "node:module";

const local = createRequire(import.meta.url);
let fromWisent: NodeJS.Require | undefined;

/**
 * Loads the framework dependency `name` synchronously.
 * @example const pg = requireDependency<typeof import("pg")>("pg");
 */
export function requireDependency<T>(name: string): T {
  try {
    return local(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    fromWisent ??= createRequire(local.resolve("wisent/package.json"));
    return fromWisent(name) as T;
  }
}
