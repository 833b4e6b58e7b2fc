import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { createTable } from "../data/create-table.js";
import { type Database, openDatabase } from "../data/database.js";
import { defineModel, type Model, type RecordOf } from "../data/model.js";
import { session } from "../middleware/session/index.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { Resource } from "../resources/resource.js";
import { signIn } from "../testing/sign-in.js";
import { testClient } from "../testing/test-client.js";
import { authentication } from "./authentication.js";

// Projects and their tasks, both owned by the signed-in user, in-process on SQLite: a task
// names its project by id in the body, as `g r task title project:references` makes it.
const SECRET = "a-test-secret-of-at-least-32-characters!";
const ADA = { id: "0190f5a2-7b1c-7cde-8f00-00000000001a" };
const BOB = { id: "0190f5a2-7b1c-7cde-8f00-00000000001b" };
const USERS = new Map([ADA, BOB].map((u) => [u.id, u]));

const Project = defineModel({
  table: "projects",
  schema: z.object({ user_id: z.uuid(), name: z.string().trim().min(1) }),
  unique: [{ field: "name", scope: "user_id" }],
});
type Project = RecordOf<typeof Project>;

const taskSchema = z.object({ user_id: z.uuid(), project_id: z.uuid(), title: z.string() });
const Task = defineModel({
  table: "tasks",
  schema: taskSchema,
  references: { project_id: { table: "projects", ownedBy: "user_id" } },
});
type Task = RecordOf<typeof Task>;
/** The task model as it was before owners were checked: the project need only exist. */
const UncheckedTask = defineModel({
  table: "tasks",
  name: "task",
  schema: taskSchema,
  references: { project_id: "projects" },
});

/** Create and Update as the generator writes them: 422 with the model's errors. */
function ownedResource<S extends z.ZodObject>(model: Model<S>, param: string) {
  return new (class extends Resource<string> {
    static override paramKey = param;
    override readonly model = model;
    override async list(c: Context) {
      const page = await model.paginate(await c.tx(), c.req.query(), c.ownerScope());
      return c.respond(200, { json: page.rows, xml: page.rows });
    }
    override async show(c: Context) {
      const found = await model.find(await c.tx(), c.req.param(param) ?? "");
      return c.respond(200, { json: found, xml: found });
    }
    override async create(c: Context) {
      const result = await model.tryCreate(await c.tx(), await c.bind());
      if (!result.ok) return c.respond(422, { json: result.errors, xml: result.errors });
      return c.respond(201, { json: result.data, xml: result.data });
    }
    override async update(c: Context) {
      const input = await c.bind();
      const tx = await c.tx();
      const found = await model.find(tx, c.req.param(param) ?? "");
      const result = await model.tryUpdate(tx, found, { ...found, ...input });
      if (!result.ok) return c.respond(422, { json: result.errors, xml: result.errors });
      return c.respond(200, { json: result.data, xml: result.data });
    }
  })();
}

let db: Database;
beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
  await createTable(db.kysely, "users", (t) => {
    t.uuid("id").primary();
  });
  await createTable(db.kysely, "projects", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.string("name").unique({ scope: "user_id" });
    t.timestamps();
  });
  await createTable(db.kysely, "tasks", (t) => {
    t.uuid("id").primary();
    t.references("user_id", "users");
    t.references("project_id", "projects");
    t.string("title");
    t.timestamps();
  });
  for (const user of USERS.values())
    await db.kysely.insertInto("users").values({ id: user.id }).execute();
});
afterAll(() => db.close());

function projectsApp(taskModel: Model<typeof taskSchema> = Task) {
  const app = new App({ name: "projects" });
  app.use(session({ secret: SECRET }));
  app.use(transaction(db));
  app.use(authentication({ load: (_c, id) => USERS.get(id) }));
  app.resource("/projects", ownedResource(Project, "project_id"), { ownedBy: "user_id" });
  app.resource("/tasks", ownedResource(taskModel, "task_id"), { ownedBy: "user_id" });
  return app;
}

async function as(user: { id: string }, accept = "application/json") {
  const client = testClient(projectsApp(), { sessionSecret: SECRET, headers: { accept } });
  await signIn(client, user);
  return client;
}

describe("a reference of an owned resource to another owned resource", () => {
  it("answers 422 naming the field for another user's record, on create and update, in JSON and XML", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    const adas = (await (await ada.post("/projects", { json: { name: "A's" } })).json()) as Project;
    const bobs = (await (await bob.post("/projects", { json: { name: "B's" } })).json()) as Project;

    const intruding = await bob.post("/tasks", { json: { project_id: adas.id, title: "in A's" } });
    expect(intruding.status).toBe(422);
    expect(await intruding.json()).toEqual({ errors: { project_id: ["Project must exist."] } });
    const asXml = await (await as(BOB, "application/xml")).post("/tasks", {
      body: `<task><project_id>${adas.id}</project_id><title>in A's</title></task>`,
      headers: { "content-type": "application/xml" },
    });
    expect(asXml.status).toBe(422);
    expect(await asXml.text()).toContain('<error field="project_id">Project must exist.</error>');

    const made = await bob.post("/tasks", { json: { project_id: bobs.id, title: "in B's" } });
    expect(made.status).toBe(201);
    const task = (await made.json()) as Task;
    const moved = await bob.put(`/tasks/${task.id}`, { json: { project_id: adas.id } });
    expect(moved.status).toBe(422);
    expect(await moved.json()).toEqual({ errors: { project_id: ["Project must exist."] } });
    // Ada's project holds nothing of Bob's: her list of tasks is empty, his has his one.
    expect(await (await ada.get("/tasks")).json()).toEqual([]);
    expect(((await (await bob.get("/tasks")).json()) as Task[]).map((t) => t.id)).toEqual([
      task.id,
    ]);
  });

  it("takes a unique name once per user: Bob may name his as Ada did, Ada not twice", async () => {
    const ada = await as(ADA);
    const bob = await as(BOB);
    expect((await ada.post("/projects", { json: { name: "Garden" } })).status).toBe(201);
    expect((await bob.post("/projects", { json: { name: "Garden" } })).status).toBe(201);
    const again = await ada.post("/projects", { json: { name: "Garden" } });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({ errors: { name: ["Name has already been taken."] } });
  });

  it("does not start while an owned model's reference to owned records leaves out their owner", () => {
    const app = projectsApp(UncheckedTask);
    expect(() => app.checkRoutes()).toThrow(
      "task (declared at packages/wisent/src/auth/owned-references.test.ts:",
    );
    expect(() => app.checkRoutes()).toThrow(
      'references.project_id points to projects, which belong to their user (ownedBy "user_id"), but does not check the owner, so a user could point a record at another user\'s: write references: { project_id: { table: "projects", ownedBy: "user_id" } }',
    );
    expect(() => projectsApp(Task).checkRoutes()).not.toThrow();
  });
});
