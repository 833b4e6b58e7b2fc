/**
 * `wisent/db`: the database (from `DATABASE_URL`), migrations and their table helpers, pagination,
 * constraint errors and the transaction hooks.
 *
 * @example
 * import { createTable, database, paginate } from "wisent/db";
 * export const db = database(); // DATABASE_URL, else sqlite:db/<environment>.sqlite
 * @module
 */
export {
  addColumn,
  addIndex,
  dropColumn,
  dropIndex,
  type IndexOptions,
  renameColumn,
} from "../data/alter-table.js";
export type { AnyDB } from "../data/any-db.js";
export { type ConstraintViolation, constraintViolation } from "../data/constraint-violation.js";
export {
  ColumnBuilder,
  createTable,
  dropTable,
  indexName,
  type ReferentialAction,
  TableBuilder,
} from "../data/create-table.js";
// One way to get a database: `database()` (lazy: opens on the first query) or `openDatabase()`
// (connects and checks now). `Database` is the type both return, not a third way (type-only).
export { type Database, type DatabaseOptions, database, openDatabase } from "../data/database.js";
export type { DialectName } from "../data/database-url.js";
export { type Dependents, dependentsOf } from "../data/dependents.js";
export { dialectOf } from "../data/dialect-of.js";
export { literalLimit } from "../data/literal-limit.js";
export {
  FolderMigrationProvider,
  type MigrationState,
  migrateDown,
  migrateUp,
  migrationStatus,
} from "../data/migrations.js";
// `Paginator` is the component (wisent/jsx); the data describing a page is `PaginationInfo`.
export type { Paginated, Paginator as PaginationInfo } from "../data/pagination.js";
export {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  type PageParams,
  pageRequest,
  paginate,
} from "../data/pagination.js";
export {
  configurePagination,
  type PaginationSettings,
  paginationSettings,
} from "../data/pagination-settings.js";
export type { Queryable } from "../data/queryable.js";
export { formatIso, StoredDate, storedDateFrom } from "../data/stored-date.js";
export { afterCommit, afterRollback } from "../data/transaction-hooks.js";
export type { UnpermittedFields } from "../data/unpermitted.js";
export { isUuid, uuidv7 } from "../data/uuid.js";
export { paginationHeaders } from "../http/pagination-headers.js";
export { decimalPlaces } from "../validation/decimal-scale.js";
export { humanizeField } from "../validation/validation.js";
