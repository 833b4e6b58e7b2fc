/**
 * What an app records about itself in its package.json, under `"wisent"`: the database engine
 * `wisent new --db` chose. Read here, with the environment, so that the database fallback is
 * decided in one place (settings.ts).
 * @module
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "./env.js";

/** The database engines an app can record. */
export const DATABASE_ENGINES = ["sqlite", "postgres", "mysql"] as const;
export type DatabaseEngine = (typeof DATABASE_ENGINES)[number];

const read = new Map<string, DatabaseEngine | undefined>();

/**
 * The database engine the app in `cwd` recorded (package.json `"wisent": { "database": ... }`,
 * written by `wisent new --db`), or undefined when it records none (or has no package.json).
 * Read once per folder. A value Wisent does not know is a {@link ConfigError} naming the file.
 *
 * @example
 * recordedDatabaseEngine("/code/readinglist"); // "postgres"
 */
export function recordedDatabaseEngine(cwd: string = process.cwd()): DatabaseEngine | undefined {
  const dir = resolve(cwd);
  if (read.has(dir)) return read.get(dir);
  const engine = engineIn(join(dir, "package.json"));
  read.set(dir, engine);
  return engine;
}

function engineIn(file: string): DatabaseEngine | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    // Not ours to report: npm says what is wrong with a package.json it cannot read.
    return undefined;
  }
  const database = (manifest as { wisent?: { database?: unknown } } | null)?.wisent?.database;
  if (database === undefined) return undefined;
  if (!(DATABASE_ENGINES as readonly unknown[]).includes(database)) {
    throw new ConfigError(
      `${file}: "wisent": { "database": ${JSON.stringify(database)} } is not a database Wisent knows: use "sqlite", "postgres" or "mysql"`,
    );
  }
  return database as DatabaseEngine;
}
