import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dropIndex } from "./alter-table.js";
import { defineModel } from "./model.js";
import {
  AnyOwnerTask,
  OWNED_MIGRATIONS,
  OwnerUser,
  Project,
  Task,
  UncheckedProject,
} from "./test-support/owned.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";

const available = await availableDialects();

let serial = 0;
/** A value no other record has, so tests never collide by accident. */
const fresh = (what: string) => `${what}-${process.pid}-${++serial}`;

/**
 * Records of owned resources, on every database: a unique value is unique per owner
 * (`unique: [{ field, scope }]` and `.unique({ scope })`), and a reference with `ownedBy` takes
 * only the record owner's own rows; both refused as a 422 naming the field, by the model's check
 * and by the database's index alike.
 */
describe.each(DIALECTS)("owned records on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect], {
    poolSize: 12,
    migrations: OWNED_MIGRATIONS,
  });
  const skip = !available[dialect];
  const users = async () => {
    const db = t.db.kysely;
    return [
      await OwnerUser.create(db, { email: `${fresh("ada")}@example.com` }),
      await OwnerUser.create(db, { email: `${fresh("bob")}@example.com` }),
    ] as const;
  };

  it.skipIf(skip)(
    "takes a name once per user: another user's is free, the user's own a 422",
    async () => {
      const db = t.db.kysely;
      const [ada, bob] = await users();
      const name = fresh("Garden");
      const adas = await Project.tryCreate(db, { user_id: ada.id, name, code: fresh("c") });
      expect(adas.ok).toBe(true);
      const bobs = await Project.tryCreate(db, { user_id: bob.id, name, code: fresh("c") });
      expect(bobs.ok, JSON.stringify(bobs.errors?.toJSON())).toBe(true);
      const again = await Project.tryCreate(db, { user_id: ada.id, name, code: fresh("c") });
      expect(again.errors?.toJSON()).toEqual({
        errors: { name: ["Name has already been taken."] },
      });
      // An update to the user's own taken name, and one that keeps its own.
      const other = await Project.create(db, {
        user_id: ada.id,
        name: fresh("x"),
        code: fresh("c"),
      });
      const moved = await Project.tryUpdate(db, other, { name });
      expect(moved.errors?.get("name")).toEqual(["Name has already been taken."]);
      const recoded = await Project.tryUpdate(db, adas.data!, { code: fresh("c") });
      expect(recoded.ok).toBe(true);
      // The global one stays global: Bob cannot take Ada's code.
      const code = await Project.tryCreate(db, {
        user_id: bob.id,
        name: fresh("n"),
        code: recoded.data!.code,
      });
      expect(code.errors?.toJSON()).toEqual({ errors: { code: ["Code has already been taken."] } });
    },
  );

  it.skipIf(skip)(
    "has the index (user_id, name) refuse alike without the model's check, naming the field",
    async () => {
      const db = t.db.kysely;
      const [ada, bob] = await users();
      const name = fresh("Index");
      await UncheckedProject.create(db, { user_id: ada.id, name, code: fresh("c") });
      expect(
        (await UncheckedProject.tryCreate(db, { user_id: bob.id, name, code: fresh("c") })).ok,
      ).toBe(true);
      const byIndex = await UncheckedProject.tryCreate(db, {
        user_id: ada.id,
        name,
        code: fresh("c"),
      });
      expect(byIndex.errors?.toJSON()).toEqual({
        errors: { name: ["Name has already been taken."] },
      });
    },
  );

  it.skipIf(skip)(
    "answers one of 10 racing creates of one user's name, and all of 10 users' names",
    async () => {
      const [ada] = await users();
      const name = fresh("Race");
      const race = (userId: string, i: number) =>
        t.db.kysely
          .transaction()
          .execute((tx) => Project.tryCreate(tx, { user_id: userId, name, code: fresh(`r${i}`) }));
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => race(ada.id, i)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      for (const refused of results.filter((r) => !r.ok)) {
        expect(refused.errors?.toJSON()).toEqual({
          errors: { name: ["Name has already been taken."] },
        });
      }
      const others = [];
      for (let i = 0; i < 10; i++) others.push((await users())[0]);
      const each = await Promise.all(others.map((user, i) => race(user.id, i)));
      expect(each.every((r) => r.ok)).toBe(true);
    },
  );

  it.skipIf(skip)("refuses a task in another user's project as a missing one (422)", async () => {
    const db = t.db.kysely;
    const [ada, bob] = await users();
    const adasProject = await Project.create(db, {
      user_id: ada.id,
      name: fresh("A"),
      code: fresh("c"),
    });
    const bobsProject = await Project.create(db, {
      user_id: bob.id,
      name: fresh("B"),
      code: fresh("c"),
    });
    const intruding = await Task.tryCreate(db, {
      user_id: bob.id,
      project_id: adasProject.id,
      title: "B's task in A's project",
    });
    expect(intruding.errors?.toJSON()).toEqual({
      errors: { project_id: ["Project must exist."] },
    });
    const own = await Task.tryCreate(db, {
      user_id: bob.id,
      project_id: bobsProject.id,
      title: "B's task",
    });
    expect(own.ok).toBe(true);
    // Moved into A's project on update: refused the same way; kept in B's own: fine.
    const moved = await Task.tryUpdate(db, own.data!, { project_id: adasProject.id });
    expect(moved.errors?.get("project_id")).toEqual(["Project must exist."]);
    expect((await Task.tryUpdate(db, own.data!, { title: "renamed" })).ok).toBe(true);
    await expect(
      Task.create(db, { user_id: bob.id, project_id: adasProject.id, title: "thrown" }),
    ).rejects.toThrow("task is invalid: Project must exist.");
    // Without ownedBy the reference only asks that the project exists: what was the hole.
    expect(
      (
        await AnyOwnerTask.tryCreate(db, {
          user_id: bob.id,
          project_id: adasProject.id,
          title: "x",
        })
      ).ok,
    ).toBe(true);
  });

  it.skipIf(skip)("drops the scoped index by its columns, as a migration's down does", async () => {
    const db = t.db.kysely;
    const [ada] = await users();
    const name = fresh("Dropped");
    await dropIndex(db, "projects", ["user_id", "name"]);
    try {
      await UncheckedProject.create(db, { user_id: ada.id, name, code: fresh("c") });
      // No index any more: the same name twice for one user.
      expect(
        (await UncheckedProject.tryCreate(db, { user_id: ada.id, name, code: fresh("c") })).ok,
      ).toBe(true);
    } finally {
      await sql`delete from projects where name = ${name}`.execute(db);
      await sql`create unique index projects_user_id_name_idx on projects (user_id, name)`.execute(
        db,
      );
    }
  });
});

describe("defineModel's unique and references", () => {
  const schema = z.object({ user_id: z.uuid(), name: z.string() });

  it("refuses a scope or an owner column the schema does not have", () => {
    expect(() =>
      defineModel({ table: "p", schema, unique: [{ field: "name", scope: "owner_id" as "name" }] }),
    ).toThrow('p: unique names "owner_id", which is not a field of the schema');
    expect(() =>
      defineModel({
        table: "t",
        schema: z.object({ project_id: z.uuid() }),
        references: { project_id: { table: "projects", ownedBy: "user_id" as "project_id" } },
      }),
    ).toThrow('t: references.project_id is ownedBy "user_id", which is not a field of the schema');
  });

  it("shows its references, each as an object", () => {
    expect(Task.references).toEqual({ project_id: { table: "projects", ownedBy: "user_id" } });
    expect(AnyOwnerTask.references).toEqual({ project_id: { table: "projects" } });
  });
});
