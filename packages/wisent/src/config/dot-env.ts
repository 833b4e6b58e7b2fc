import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";

/**
 * The variables of the app's `.env` file (none when it has none): the one place Wisent reads it
 * (the database URL's rule, `data/app-database-url.ts`, applies it).
 *
 * @param cwd - the app's folder
 * @returns the file's variables, unexpanded
 * @example readDotEnv(process.cwd()).DATABASE_URL
 */
export function readDotEnv(cwd: string): Record<string, string> {
  const file = join(cwd, ".env");
  if (!existsSync(file)) return {};
  return { ...parseEnv(readFileSync(file, "utf8")) } as Record<string, string>;
}
