/**
 * `wisent/client`: a typed client of a Wisent app's JSON API, with no code generation.
 * @module
 */
export {
  type ClientOptions,
  createClient,
  type FetchFn,
  type OperationsDocument,
} from "./create-client.js";
export type { ResourceSpec } from "./resource-spec.js";
export type {
  Client,
  CreateBody,
  ErrorStatus,
  HttpFailure,
  Jsonify,
  LiveChange,
  PageCursors,
  PageQuery,
  PageSuccess,
  Pagination,
  PathValues,
  ReadResult,
  RecordJson,
  ResourceClient,
  StoredFileJson,
  Success,
  UpdateBody,
  ValidationFailure,
  WriteResult,
} from "./types.js";
