/**
 * The environment the app runs in: `GO_ENV` (Buffalo's name), else `NODE_ENV`, else `development`.
 *
 * @example
 * if (currentEnv() === "production") requireSecret();
 */
export function currentEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.GO_ENV || env.NODE_ENV || "development";
}

/** The environments that may run without secrets, with development's conveniences. */
const RELAXED_ENVIRONMENTS: ReadonlySet<string> = new Set(["development", "test"]);

/**
 * True when `envName` runs with production's defaults: `production`, and every name other than
 * exactly `development` or `test` (`staging`, `prod`, `Production`, ...), which must never get
 * development's forgeable defaults by a typo.
 *
 * @example
 * isProductionLike("staging"); // true
 * isProductionLike("test");    // false
 */
export function isProductionLike(envName: string): boolean {
  return !RELAXED_ENVIRONMENTS.has(envName);
}

/**
 * True when the app runs with production's defaults (force-SSL, Secure cookies, a required
 * `SESSION_SECRET`, no stack traces): see {@link isProductionLike}.
 */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return isProductionLike(currentEnv(env));
}

/**
 * The one start-up line for an environment name Wisent does not know (undefined for
 * `development`, `test` and `production`).
 *
 * @example
 * unknownEnvironmentNotice("staging");
 * // 'environment "staging" is not development, test or production: running with production's defaults ...'
 */
export function unknownEnvironmentNotice(envName: string): string | undefined {
  if (envName === "production" || RELAXED_ENVIRONMENTS.has(envName)) return undefined;
  return `environment "${envName}" is not development, test or production: running with production's defaults (SESSION_SECRET required, HTTPS enforced, allowed hosts checked, no stack traces)`;
}
