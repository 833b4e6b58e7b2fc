/**
 * Wisent: resource routing, route names, generators and a real database for Hono apps.
 * @module
 */
export { currentEnv, isProduction } from "./app/environment.js";
export type { WisentRuntime } from "./app/runtime.js";
export { HttpError, isHttpError } from "./http/http-error.js";
export { ValidationErrors } from "./http/validation-errors.js";
export type { Names, ResourceRouteNames, RouteNameOptions } from "./naming/index.js";
export {
  camelize,
  names,
  paramKeyFromClassName,
  pascalize,
  pathName,
  pluralize,
  routeNameForPath,
  singularize,
  titleize,
  underscore,
  validateResourceName,
} from "./naming/index.js";
