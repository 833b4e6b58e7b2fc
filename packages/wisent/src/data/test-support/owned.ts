import { z } from "zod";
import { defineModel, type RecordOf } from "../model.js";

/** A user (test-support/owned-migrations/20240104000000_create_owned.ts). */
export const OwnerUser = defineModel({
  table: "users",
  name: "user",
  schema: z.object({ email: z.string() }),
});
export type OwnerUser = RecordOf<typeof OwnerUser>;

const projectSchema = z.object({ user_id: z.uuid(), name: z.string(), code: z.string() });

/** A user's project: its name unique among the user's own, its code across every user. */
export const Project = defineModel({
  table: "projects",
  schema: projectSchema,
  unique: [{ field: "name", scope: "user_id" }, "code"],
});
export type Project = RecordOf<typeof Project>;

/** The same table with no checks of its own: only the database's indexes refuse. */
export const UncheckedProject = defineModel({ table: "projects", schema: projectSchema });

const taskSchema = z.object({ user_id: z.uuid(), project_id: z.uuid(), title: z.string() });

/** A user's task, in one of the same user's projects. */
export const Task = defineModel({
  table: "tasks",
  schema: taskSchema,
  references: { project_id: { table: "projects", ownedBy: "user_id" } },
});
export type Task = RecordOf<typeof Task>;

/** A task whose project is checked only to exist (the reference without its owner). */
export const AnyOwnerTask = defineModel({
  table: "tasks",
  name: "task",
  schema: taskSchema,
  references: { project_id: "projects" },
});

/** The migrations of users, projects and tasks, for `migratedTestDatabase`'s `migrations`. */
export const OWNED_MIGRATIONS = new URL("./owned-migrations", import.meta.url).pathname;
