/**
 * `wisent/config`: the environment the app runs in, and the table of every environment variable
 * Wisent reads (docs/reference/environment.md is generated from it).
 *
 * @example
 * import { currentEnv, isProduction } from "wisent/config";
 * if (isProduction()) app.use(rateLimit({ limit: 100, window: 60 }));
 * @module
 */
export {
  ENVIRONMENT_VARIABLES,
  type EnvironmentVariable,
  type EnvironmentVariableName,
} from "../config/environment-variables.js";
export { currentEnv, isProduction, isProductionLike } from "../config/settings.js";
