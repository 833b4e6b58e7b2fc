import type { Kysely } from "kysely";
import { createTable, dropTable } from "../../create-table.js";

/**
 * Users, their projects (a name unique per user, a code unique across users) and their tasks
 * (each in a project), as `wisent g auth` and owned resources make them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createTable(db, "users", (t) => {
    t.uuid("id").primary();
    t.string("email").unique();
    t.timestamps();
  });
  await createTable(db, "projects", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.string("name").unique({ scope: "user_id" });
    t.string("code").unique();
    t.timestamps();
  });
  await createTable(db, "tasks", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.references("project_id", "projects");
    t.string("title");
    t.timestamps();
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTable(db, "tasks");
  await dropTable(db, "projects");
  await dropTable(db, "users");
}
