import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { wisentPackage } from "../new/versions.js";

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The app's package.json, parsed, with the text it was read from. */
function readManifest(appDir: string): { manifest: Manifest; text: string } | undefined {
  const file = join(appDir, "package.json");
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  return { manifest: JSON.parse(text) as Manifest, text };
}

/** Writes package.json as `wisent new` and npm write it: two spaces, the newline it ended with. */
function writeManifest(appDir: string, manifest: Manifest, before: string): void {
  const ending = before.endsWith("\n") ? "\n" : "";
  writeFileSync(join(appDir, "package.json"), `${JSON.stringify(manifest, null, 2)}${ending}`);
}

/**
 * The optional peer dependencies of wisent that generated code needs at run time (`nodemailer`
 * for the password reset mail), each with the range wisent declares for it, that the app's
 * package.json does not list yet.
 *
 * @example missingPeerDependencies(appDir, ["nodemailer"]); // [["nodemailer", "^8.0.11"]]
 */
export function missingPeerDependencies(
  appDir: string,
  names: readonly string[],
): [name: string, range: string][] {
  const read = readManifest(appDir);
  const listed = { ...read?.manifest.devDependencies, ...read?.manifest.dependencies };
  const peers = wisentPackage().peerDependencies;
  return names
    .filter((name) => listed[name] === undefined)
    .map((name) => {
      const range = peers[name];
      // Internal: the packages named are Wisent's own peer dependencies.
      if (range === undefined)
        throw new Error(`wisent's package.json has no peer dependency ${name}`);
      return [name, range];
    });
}

/** Adds dependencies to the app's package.json, its dependencies kept sorted by name. */
export function addAppDependencies(appDir: string, added: readonly [string, string][]): void {
  const read = readManifest(appDir);
  if (!read || added.length === 0) return;
  const dependencies = { ...read.manifest.dependencies, ...Object.fromEntries(added) };
  read.manifest.dependencies = Object.fromEntries(
    Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  writeManifest(appDir, read.manifest, read.text);
}

/** Removes dependencies from the app's package.json (the ones a generator added); true if any. */
export function removeAppDependencies(appDir: string, names: readonly string[]): boolean {
  const read = readManifest(appDir);
  const dependencies = read?.manifest.dependencies;
  if (!read || !dependencies || !names.some((name) => name in dependencies)) return false;
  for (const name of names) delete dependencies[name];
  writeManifest(appDir, read.manifest, read.text);
  return true;
}
