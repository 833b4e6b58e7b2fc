import { RELAXED_ENVIRONMENTS } from "../config/settings.js";

// The environment's name and what it implies are settings, read in src/config/settings.ts.
export { currentEnv, isProduction, isProductionLike } from "../config/settings.js";

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
