export {
  addColumn,
  addIndex,
  dropColumn,
  dropIndex,
  type IndexOptions,
  indexName,
  renameColumn,
} from "./alter-table.js";
export {
  ColumnBuilder,
  createTable,
  dropTable,
  type ReferentialAction,
  TableBuilder,
} from "./create-table.js";
export { Database, type DatabaseOptions, database, openDatabase } from "./database.js";
export {
  type DatabaseTarget,
  type DialectName,
  defaultDatabaseUrl,
  maskDatabaseUrl,
  parseDatabaseUrl,
} from "./database-url.js";
export { dialectOf } from "./dialect-of.js";
export {
  FolderMigrationProvider,
  type MigrationState,
  migrateDown,
  migrateUp,
  migrationFileName,
  migrationStatus,
} from "./migrations.js";
export {
  defineModel,
  type Model,
  type ModelColumns,
  type ModelOptions,
  type ModelRecord,
  type RecordOf,
  ValidationFailedError,
} from "./model.js";
export {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  type PageParams,
  type Paginated,
  type Paginator as PaginatorData,
  pageRequest,
  paginate,
} from "./pagination.js";
export { cursorUrl, pageUrl, paginationHeaders } from "./pagination-headers.js";
export {
  configurePagination,
  type PaginationSettings,
  paginationSettings,
} from "./pagination-settings.js";
export { type PageSlot, Paginator, type PaginatorProps, pageSlots } from "./paginator.js";
export type { Queryable } from "./queryable.js";
export { cacheStatements } from "./sqlite-statement-cache.js";
export { formatIso, StoredDate, storedDateFrom } from "./stored-date.js";
export { isUuid, uuidv7 } from "./uuid.js";
export { humanizeField, type Validated, validate } from "./validation.js";
