/**
 * Wisent: resource routing, route names, generators and a real database for Hono apps.
 *
 * The root holds what every app's `src/app.ts`, handlers and models use: the App, resources,
 * `defineModel`, the errors and the types handlers are written with. The rest is in subpaths:
 * `wisent/db`, `wisent/auth`, `wisent/middleware`, `wisent/jsx`, `wisent/storage`,
 * `wisent/config`, `wisent/testing`, `wisent/client` (src/package-exports.test.ts lists each; the root keeps at
 * most 80 run-time values).
 *
 * @example
 * import { App, defineModel, HttpError, Resource } from "wisent";
 * @module
 */

export { App, type AppOptions, type CorsOptions, type OpenApiRouteOptions } from "./app/app.js";
export { Group, type ParamsOf, ResourceGroup } from "./app/group.js";
export type { RouteBuilder } from "./app/route-builder.js";
export type { WisentRuntime } from "./app/runtime.js";
export type { StaticFilesOptions } from "./app/static-files.js";
export type { ErrorCode, ErrorCodeInfo } from "./base/error-codes.js";
export { HttpError, isHttpError } from "./base/http-error.js";
export { isWisentError, WisentError } from "./base/wisent-error.js";
export { DependentRecordsError } from "./data/dependents.js";
export type {
  CheckedReference,
  ModelColumns,
  ModelOptions,
  Reference,
  UniqueField,
} from "./data/model.js";
export {
  defineModel,
  type ForeignKeyColumn,
  type Model,
  type ModelRecord,
  type ParentKey,
  type RecordOf,
  type RecordScope,
  ValidationFailedError,
  type WithParent,
} from "./data/model.js";
export type { Queryable } from "./data/queryable.js";
export { appOrigin } from "./http/app-url.js";
export { type Format, negotiateFormat } from "./http/format.js";
export type { HealthCheckOptions } from "./http/health-check.js";
export type { ParamLimits } from "./http/nested-params.js";
export type { OwnerScope } from "./http/owner-scope.js";
export type { RedirectStatus, Register, RouteName } from "./http/redirect.js";
export { parseXml, toXml } from "./http/xml.js";
export type { Names, ResourceRouteNames, RouteNameOptions } from "./naming/index.js";
export type {
  MappingOptions,
  Operation,
  OptionalOperations,
  ResourceRoute,
  RouteVerb,
  SingletonOperation,
} from "./resources/mapping.js";
export {
  type AnswerDoc,
  documented,
  type OperationDoc,
} from "./resources/operation-doc.js";
export type {
  DeclaredRoutes,
  HandlersFor,
  LiveRowOptions,
  ResourceOptions,
  SingletonOptions,
} from "./resources/options.js";
export type { PolicyRule, ResourcePolicy } from "./resources/policy.js";
export {
  type Editable,
  type HandlerResult,
  type Newable,
  NOT_IMPLEMENTED,
  type OperationHandler,
  Resource,
  ResourceBase,
  SingletonResource,
} from "./resources/resource.js";
export type { ParamRequest, ResourceContext } from "./resources/resource-context.js";
export type { PathsOf } from "./routes/app-paths.js";
export type { ParamValue, PathParams } from "./routes/build-path.js";
export type { RouteInfo } from "./routes/route-info.js";
export type { PathHelper, ResourcePaths, SingletonPaths } from "./routes/typed-names.js";
export type { ListenOptions, RunningServer } from "./server/listen.js";
export { attachment, attachments } from "./storage/attachment-rule.js";
export { StoredAttachment } from "./storage/stored-attachment.js";
export { UploadedFile } from "./storage/uploaded-file.js";
export { type DecimalInput, type DecimalOptions, decimal } from "./validation/decimal.js";
export { decimalScale } from "./validation/decimal-scale.js";
export { type Validated, validate } from "./validation/validation.js";
export { ValidationErrors } from "./validation/validation-errors.js";

// Their \`declare module "hono"\` blocks type c.bind, c.ownerScope and c.redirectTo (the App installs
// the methods; importing these modules changes nothing at run time).
import "./http/bind.js";
import "./http/owner-scope.js";
import "./http/redirect.js";

// Names that moved to a subpath, importable from the root for one release.
export * from "./entries/deprecated-root.js";
