/**
 * Wisent: resource routing, route names, generators and a real database for Hono apps.
 * @module
 */
export { App, type AppOptions } from "./app/app.js";
export { currentEnv, isProduction } from "./app/environment.js";
export { Group, type ParamsOf, ResourceGroup } from "./app/group.js";
export type { ListenOptions, RunningServer } from "./app/listen.js";
export { type PathFormat, pathFormatOf } from "./app/path-format.js";
export { RouteBuilder } from "./app/route-builder.js";
export type { WisentRuntime } from "./app/runtime.js";
export type { StaticFilesOptions } from "./app/static-files.js";
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
export { type Operation, type OptionalOperations, resourceRoutes } from "./resources/mapping.js";
export {
  type Editable,
  type HandlerResult,
  type Newable,
  NOT_IMPLEMENTED,
  Resource,
} from "./resources/resource.js";
export type { ParamValue, PathParams } from "./routes/build-path.js";
export { defaultHost, type RouteInfo } from "./routes/route-info.js";
export { formatRouteJson, formatRouteTable } from "./routes/route-table.js";
export type { PathHelper } from "./routes/typed-names.js";
