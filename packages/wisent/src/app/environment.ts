/**
 * The environment the app runs in: `GO_ENV` (as the spec says), else `NODE_ENV`, else `development`.
 *
 * @example
 * if (currentEnv() === "production") requireSecret();
 */
export function currentEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.GO_ENV || env.NODE_ENV || "development";
}

/** True when the app runs in production. */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return currentEnv(env) === "production";
}
