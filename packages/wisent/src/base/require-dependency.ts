/**
 * `require()` for the framework's own CommonJS dependencies that load on demand (the database
 * drivers, the XML parser, Redis, mail): only an app that needs one pays for loading it.
 *
 * They are resolved from the framework's package folder wherever this code runs. Run from
 * `node_modules/wisent/dist`, that is where Node looks anyway; but `wisent build` bundles the
 * framework into the app's `dist/server.js`, from where the framework's dependencies are not always
 * reachable (a `file:` link to a checkout, an install that did not hoist them). There the lookup
 * falls back to the folder of the `wisent` package the app depends on.
 *
 * `pg`, `mysql2`, `ioredis` and `nodemailer` are optional peer dependencies of the package (an
 * app installs only the ones it uses): when one is missing, the error is one line naming the
 * `npm install` to run, not Node's resolution trace.
 * @module
 */
import { createRequire } from "node:module";
import { WisentError } from "./wisent-error.js";

const local = createRequire(import.meta.url);
let fromWisent: NodeJS.Require | undefined;

/** What the framework needs a dependency for, said in its "not installed" message. */
const PURPOSE: Readonly<Record<string, string>> = {
  pg: "a postgres:// DATABASE_URL",
  mysql2: "a mysql:// DATABASE_URL",
  ioredis: "the Redis rate-limit store and a redis:// LIVE_URL",
  nodemailer: "sending mail",
  bullmq: "a redis:// JOBS_URL (jobs in Redis)",
  "better-sqlite3": "the embedded SQLite database",
};

/**
 * Thrown when an optional dependency is not installed; its message is the whole story, e.g.
 * `the package pg is not installed (needed for a postgres:// DATABASE_URL): run \`npm install pg\` in the app's folder`.
 */
export class MissingDependencyError extends WisentError {
  override name = "MissingDependencyError";
  constructor(
    readonly dependency: string,
    options?: ErrorOptions,
  ) {
    const purpose = PURPOSE[dependency];
    super(
      "E_MISSING_DEPENDENCY",
      `the package ${dependency} is not installed${purpose ? ` (needed for ${purpose})` : ""}: run \`npm install ${dependency}\` in the app's folder`,
      options,
    );
  }
}

/** True when `error` says that `name` itself (not one of its own imports) cannot be found. */
function isNotFound(error: unknown, name: string): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  return (
    code === "MODULE_NOT_FOUND" &&
    typeof message === "string" &&
    message.startsWith(`Cannot find module '${name}'`)
  );
}

/**
 * Loads the framework dependency `name` synchronously; a missing one throws a
 * {@link MissingDependencyError} naming the `npm install` to run.
 * @example const pg = requireDependency<typeof import("pg")>("pg");
 */
export function requireDependency<T>(name: string): T {
  try {
    return local(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    try {
      fromWisent ??= createRequire(local.resolve("wisent/package.json"));
      return fromWisent(name) as T;
    } catch (again) {
      const nowhere = isNotFound(again, name) || isNotFound(again, "wisent/package.json");
      if (nowhere && isNotFound(error, name))
        throw new MissingDependencyError(name, { cause: error });
      throw again;
    }
  }
}

/**
 * Whether the framework dependency `name` can be loaded, found as {@link requireDependency} finds
 * it but not loaded: for a start-up check of what a feature will need later.
 * @example if (!isDependencyInstalled("nodemailer")) throw new Error("npm install nodemailer");
 */
export function isDependencyInstalled(name: string): boolean {
  try {
    local.resolve(name);
    return true;
  } catch {
    try {
      fromWisent ??= createRequire(local.resolve("wisent/package.json"));
      fromWisent.resolve(name);
      return true;
    } catch {
      return false;
    }
  }
}

/** A native addon's binary that cannot be loaded; its message names the npm command to run. */
export class NativeBinaryError extends WisentError {
  override name = "NativeBinaryError";
  constructor(message: string, options?: ErrorOptions) {
    super("E_NATIVE_BINARY", message, options);
  }
}

/**
 * The one-line error for a native addon whose compiled binary cannot be loaded: never built
 * (install scripts skipped, no compiler), or built for another Node version (the ABI changes
 * with Node's major version). Undefined for any other error.
 * @example
 * try { new Sqlite(file) } catch (error) { throw nativeBinaryError(error, "better-sqlite3") ?? error }
 */
export function nativeBinaryError(error: unknown, dependency: string): Error | undefined {
  const message = (error as Error | undefined)?.message ?? "";
  // better-sqlite3 13 ships its binaries in the package (prebuilds/<platform>-<arch>.node) and
  // loads one when imported; one that is missing means an incomplete install, which only a
  // reinstall brings back.
  if (/Cannot find module '[^']*\.node'/.test(message)) {
    return new NativeBinaryError(
      `the package ${dependency} has no native binary for ${process.platform}-${process.arch} in node_modules (an incomplete install): run \`npm ci\` in the app's folder to install it again`,
      { cause: error },
    );
  }
  const missing = /Could not locate the bindings file/.test(message);
  const otherAbi = /NODE_MODULE_VERSION|was compiled against a different Node\.js version/.test(
    message,
  );
  if (!missing && !otherAbi) return undefined;
  const why = missing
    ? "has no compiled native binary (its install script did not run or failed)"
    : `was compiled for another Node.js version than this one (${process.version})`;
  return new NativeBinaryError(
    `the package ${dependency} ${why}: run \`npm rebuild ${dependency}\` in the app's folder`,
    { cause: error },
  );
}
