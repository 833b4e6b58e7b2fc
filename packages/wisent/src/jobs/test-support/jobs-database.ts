import { afterAll, afterEach, beforeAll } from "vitest";
import type { Database } from "../../data/database.js";
import type { DialectName } from "../../data/database-url.js";
import { migrateUp } from "../../data/migrations.js";
import { createTestDatabase, type TestDatabase } from "../../data/test-support/test-databases.js";
import { MIGRATIONS } from "../../data/test-support/widget.js";
import { createJobTables, JOB_SCHEDULES_TABLE, JOBS_TABLE } from "../jobs-table.js";

/**
 * A throwaway database named `jobs_<random>` with the jobs tables and the widgets table, for one
 * dialect's describe block; emptied after each test, dropped after the block.
 */
export function jobsTestDatabase(
  dialect: DialectName,
  available: boolean,
  options: { poolSize?: number } = {},
): { readonly db: Database; readonly url: string } {
  let made: TestDatabase | undefined;
  beforeAll(async () => {
    if (!available) return;
    made = await createTestDatabase(dialect, { prefix: "jobs", poolSize: options.poolSize ?? 5 });
    await migrateUp(made.db, MIGRATIONS);
    await createJobTables(made.db.kysely);
  });
  afterEach(async () => {
    if (!made) return;
    await made.db.kysely.deleteFrom(JOBS_TABLE).execute();
    await made.db.kysely.deleteFrom(JOB_SCHEDULES_TABLE).execute();
    await made.db.kysely.deleteFrom("widgets").execute();
  });
  afterAll(async () => {
    await made?.drop();
  });
  return {
    get db() {
      if (!made) throw new Error(`no ${dialect} test database (is the server reachable?)`);
      return made.db;
    },
    get url() {
      if (!made) throw new Error(`no ${dialect} test database`);
      return made.url;
    },
  };
}
