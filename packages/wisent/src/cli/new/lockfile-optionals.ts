/**
 * A new app's package-lock.json, made acceptable to `npm ci`. npm (11.16 and later, at least to
 * 11.19) leaves out of the lock an optional dependency the registry does not have (vite 8.4.0
 * declares `napi-windows-process-start-time`, which is not published), then its own `npm ci`
 * rebuilds the tree, finds that dependency again and refuses the lock: "Missing:
 * napi-windows-process-start-time@ from lock file" (npm/cli#9846). The Dockerfile's `npm ci`
 * failed on a fresh app for that reason.
 *
 * After `npm install`, each optional dependency that no lock entry resolves gets one: the lowest
 * version its range allows, marked optional (and dev when its dependent is). `npm ci` then finds
 * the lock complete, fails to fetch the package, and skips it as the optional dependency it is;
 * later `npm install`s keep the entry.
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";

/** One entry of a lock file's `packages` (lockfileVersion 2 and 3). */
interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  link?: boolean;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

interface Lockfile {
  lockfileVersion?: number;
  packages?: Record<string, LockEntry>;
  [key: string]: unknown;
}

/** An optional dependency no lock entry resolves, and the entry that stands in for it. */
export interface UnlockedOptional {
  /** Its path in the lock: `node_modules/napi-windows-process-start-time`. */
  readonly path: string;
  readonly name: string;
  /** Who declares it: the lock path of its dependent (`node_modules/vite`). */
  readonly dependent: string;
  readonly entry: LockEntry;
}

/** The folders Node would look in for `name`, from the package at lock path `from` upward. */
function lookupPaths(from: string, name: string): string[] {
  const paths: string[] = [];
  let at = from;
  for (;;) {
    paths.push(`${at === "" ? "" : `${at}/`}node_modules/${name}`);
    if (at === "") return paths;
    const cut = at.lastIndexOf("/node_modules/");
    at = cut === -1 ? "" : at.slice(0, cut);
  }
}

/**
 * The optional dependencies declared in `lock` that no entry resolves (the first entry Node
 * would find, in the dependent's own node_modules, then each folder above, with a version the
 * range allows), with the entry to add for each: hoisted when nothing is there, else beside its
 * dependent. A range that names no version (a tag, a URL) gets none: there is no version to write.
 *
 * @example
 * unlockedOptionals(lock).map((o) => o.name); // ["napi-windows-process-start-time"]
 */
export function unlockedOptionals(lock: Lockfile): UnlockedOptional[] {
  const packages = lock.packages ?? {};
  const added = new Map<string, UnlockedOptional>();
  for (const [dependent, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      const candidates = lookupPaths(dependent, name);
      const lowest = semver.validRange(range) ? semver.minVersion(range) : null;
      // The first entry Node would find resolves it, if its version is one the range allows.
      const found = candidates.find((path) => path in packages || added.has(path));
      if (found !== undefined) {
        const version = (packages[found] ?? added.get(found)?.entry)?.version;
        if (!lowest || version === undefined || semver.satisfies(version, range)) continue;
        if (found === candidates[0]) continue;
      }
      if (!lowest) continue;
      const hoisted = `node_modules/${name}`;
      const path = found === undefined && !(hoisted in packages) ? hoisted : candidates[0]!;
      added.set(path, {
        path,
        name,
        dependent,
        entry: { version: lowest.version, ...(entry.dev ? { dev: true } : {}), optional: true },
      });
    }
  }
  return [...added.values()];
}

/**
 * Adds the entries of {@link unlockedOptionals} to the package-lock.json in `dir`, keeping npm's
 * order of entries and its formatting; returns what it added (nothing when the lock is complete
 * or absent).
 *
 * @example
 * completeLockfile("/code/readinglist"); // [{ name: "napi-windows-process-start-time", ... }]
 */
export function completeLockfile(dir: string): UnlockedOptional[] {
  const file = join(dir, "package-lock.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const lock = JSON.parse(text) as Lockfile;
  const missing = unlockedOptionals(lock);
  if (missing.length === 0 || !lock.packages) return [];
  const packages: Record<string, LockEntry> = { ...lock.packages };
  for (const { path, entry } of missing) packages[path] = entry;
  // npm's own order: the root first, then the paths sorted as it sorts them.
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) =>
      a === "" ? -1 : b === "" ? 1 : a.localeCompare(b, "en"),
    ),
  );
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  return missing;
}
