import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Dev tools of a new app, the versions the Wisent repository itself is built and tested with
 * (a test keeps them equal to the root package.json).
 */
export const APP_TOOL_VERSIONS = {
  typescript: "~5.9.3",
  vitest: "^4.1.12",
  biome: "2.6.8",
  typesNode: "^20.19.0",
} as const;

/** `packages/wisent/`: the installed (or checked-out) framework package. */
export const WISENT_PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface PackageJson {
  version: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

/** The framework's package.json. */
export function wisentPackage(): PackageJson {
  return JSON.parse(readFileSync(join(WISENT_PACKAGE_ROOT, "package.json"), "utf8")) as PackageJson;
}

/** The database driver an app on `db` needs, an optional peer dependency of the framework. */
const DRIVERS = { sqlite: undefined, postgres: "pg", mysql: "mysql2" } as const;

/**
 * The driver a new app on `db` adds to its dependencies, with the range the framework declares
 * for it (`peerDependencies`); none for SQLite, whose driver the framework itself depends on.
 * @example driverDependency("postgres") // ["pg", "^8.23.1"]
 */
export function driverDependency(
  db: keyof typeof DRIVERS,
): readonly [name: string, range: string] | undefined {
  const name = DRIVERS[db];
  if (name === undefined) return undefined;
  const range = wisentPackage().peerDependencies[name];
  // Internal: the drivers are Wisent's own peer dependencies.
  if (range === undefined) throw new Error(`wisent's package.json has no peer dependency ${name}`);
  return [name, range];
}

/**
 * The folder of package `name` as the framework resolves it (walking up `node_modules` folders
 * from the framework's own folder), or undefined.
 */
export function resolvedPackageDir(name: string, from = WISENT_PACKAGE_ROOT): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The dependency specs of a new app's package.json. */
export interface AppDependencies {
  wisent: string;
  hono: string;
  zod: string;
}

/**
 * Published ranges, or with `dev` `file:` links to this checkout: wisent itself, and hono and zod
 * as the framework resolves them, so the app and the framework share one copy of each (one
 * `hono` module means Wisent's additions to Hono's `Context` type reach the app's handlers).
 * The links are relative to `appDir` (the new app's folder), so the app and the checkout can
 * move together, and no home folder ends up in a committed package.json.
 * @example appDependencies(true, "/home/me/code/blog").wisent // "file:../wisent/packages/wisent"
 */
export function appDependencies(dev: boolean, appDir = process.cwd()): AppDependencies {
  const pkg = wisentPackage();
  if (!dev) {
    return {
      wisent: `^${pkg.version}`,
      hono: pkg.dependencies.hono ?? "^4",
      zod: pkg.dependencies.zod ?? "^4",
    };
  }
  const fileLink = (dir: string) => `file:${relative(appDir, dir).split(sep).join("/") || "."}`;
  const link = (name: string) => {
    const dir = resolvedPackageDir(name);
    // Internal: --dev is for a checkout of Wisent, whose npm ci installs these.
    if (!dir)
      throw new Error(
        `--dev: cannot find ${name} next to ${WISENT_PACKAGE_ROOT} (run npm ci in the checkout)`,
      );
    return fileLink(dir);
  };
  return {
    wisent: fileLink(WISENT_PACKAGE_ROOT),
    hono: link("hono"),
    zod: link("zod"),
  };
}
