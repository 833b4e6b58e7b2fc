export {
  type PendingMigrationsOptions,
  pendingMigrations,
} from "./pending-migrations.js";
