import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { isWisentError } from "../base/wisent-error.js";
import { appThrowing, spyLogger } from "../http/test-support/app-throwing.js";
import { databaseFailure } from "./database-failure.js";
import type { Queryable } from "./queryable.js";
import { Author, LIBRARY_MIGRATIONS } from "./test-support/library.js";
import {
  availableDialects,
  DIALECTS,
  migratedTestDatabase,
} from "./test-support/test-databases.js";
import { uuidv7 } from "./uuid.js";

const available = await availableDialects();

/** A driver's error as the test builds it: its message and the fields the driver sets. */
const driverError = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), fields);

/** What a request answers for `error` once data/ has translated it. */
async function answered(error: unknown, accept = "application/json", logger = spyLogger()) {
  const res = await appThrowing(databaseFailure(error), "production", logger).request("/widgets", {
    headers: { accept },
  });
  return { res, logger };
}

describe("databaseFailure", () => {
  // A constraint error no model caught (a query written by hand), as each driver reports it.
  it.each([
    [
      "SQLite unique",
      driverError("UNIQUE constraint failed: books.isbn", { code: "SQLITE_CONSTRAINT_UNIQUE" }),
      "E_UNIQUE_VIOLATION",
      422,
      { errors: { isbn: ["Isbn has already been taken."] } },
    ],
    [
      "PostgreSQL unique",
      driverError("duplicate key", { code: "23505", detail: "Key (isbn)=(978) already exists." }),
      "E_UNIQUE_VIOLATION",
      422,
      { errors: { isbn: ["Isbn has already been taken."] } },
    ],
    [
      "PostgreSQL unique within a scope",
      driverError("duplicate key", {
        code: "23505",
        detail: "Key (user_id, name)=(0190, Garden) already exists.",
      }),
      "E_UNIQUE_VIOLATION",
      422,
      { errors: { name: ["Name has already been taken."] } },
    ],
    [
      "SQLite unique within a scope",
      driverError("UNIQUE constraint failed: projects.user_id, projects.name", {
        code: "SQLITE_CONSTRAINT_UNIQUE",
      }),
      "E_UNIQUE_VIOLATION",
      422,
      { errors: { name: ["Name has already been taken."] } },
    ],
    [
      "PostgreSQL missing parent",
      driverError("violates foreign key", {
        code: "23503",
        detail: 'Key (author_id)=(x) is not present in table "authors".',
      }),
      "E_MISSING_REFERENCE",
      422,
      { errors: { author_id: ["Author must exist."] } },
    ],
    [
      "MySQL restricted delete",
      driverError("Cannot delete or update a parent row", { errno: 1451 }),
      "E_DEPENDENT_RECORDS",
      409,
      {
        error: "the record is still referenced by other records",
        code: 409,
        error_code: "E_DEPENDENT_RECORDS",
      },
    ],
    [
      "PostgreSQL NUL byte in text (22021)",
      driverError('invalid byte sequence for encoding "UTF8": 0x00', { code: "22021" }),
      "E_INVALID_VALUE",
      400,
      {
        error: 'the database refused a value: invalid byte sequence for encoding "UTF8": 0x00',
        code: 400,
        error_code: "E_INVALID_VALUE",
      },
    ],
  ])(
    "codes a %s error, which a request answers as a client error",
    async (_, error, code, status, body) => {
      const failure = databaseFailure(error);
      expect(isWisentError(failure, code as never)).toBe(true);
      expect((failure as Error).cause).toBe(error);
      const { res } = await answered(error);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual(body);
    },
  );

  it("leaves a bad query as it is: a 500", async () => {
    const syntax = driverError("syntax error", { code: "42601" });
    expect(databaseFailure(syntax)).toBe(syntax);
    const { res } = await answered(syntax);
    expect(res.status).toBe(500);
  });

  it("leaves a WisentError as it is", () => {
    const once = databaseFailure(driverError("duplicate key", { code: "23505" }));
    expect(databaseFailure(once)).toBe(once);
  });
});

describe("databaseFailure while the database is unavailable", () => {
  const refused = new AggregateError([
    driverError("connect ECONNREFUSED 127.0.0.1:5432", {
      code: "ECONNREFUSED",
      syscall: "connect",
    }),
  ]);

  it.each([
    ["application/json", /^application\/json/],
    ["application/xml", /^application\/xml/],
    ["text/html", /^text\/html/],
  ])(
    "answers 503 with Retry-After and a clear message in %s, and logs the cause",
    async (accept, type) => {
      expect(isWisentError(databaseFailure(refused), "E_DATABASE_UNAVAILABLE")).toBe(true);
      const { res, logger } = await answered(refused, accept);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("content-type")).toMatch(type);
      const body = await res.text();
      expect(body).toContain("database unavailable: please try again shortly");
      expect(body).not.toContain("ECONNREFUSED");
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({
          msg: "database unavailable",
          request_id: "req-1",
          path: "/widgets",
          error: "connect ECONNREFUSED 127.0.0.1:5432",
        }),
      );
    },
  );

  it.each([
    ["PostgreSQL", { code: "3D000" }, 'database "shop_production" does not exist'],
    ["MySQL", { code: "ER_BAD_DB_ERROR", errno: 1049 }, "Unknown database 'shop_production'"],
  ])(
    "answers 503 for a %s database never created, its log line naming wisent db create",
    async (_server, fields, message) => {
      const { res, logger } = await answered(driverError(message, fields));
      expect(res.status).toBe(503);
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({
          msg: "database unavailable",
          error: `${message}: create it with \`wisent db create\` (or \`wisent db prepare\`, which also runs the migrations)`,
        }),
      );
    },
  );
});

/** Queries written by hand, on each database: the connection data/ runs them on codes the failure. */
describe.each(DIALECTS)("a query written by hand on %s", (dialect) => {
  const t = migratedTestDatabase(dialect, available[dialect], {
    migrations: LIBRARY_MIGRATIONS,
  });
  const skip = !available[dialect];

  const author = async () => (await Author.create(t.db.kysely, { name: "Ann" })).id;
  const bookRow = (authorId: string, isbn: string) => {
    const now = new Date();
    return {
      id: uuidv7(),
      author_id: authorId,
      isbn,
      title: "T",
      price: "1.00",
      created_at: now,
      updated_at: now,
    };
  };
  const book = (authorId: string, isbn: string, db: Queryable = t.db.kysely) =>
    db.insertInto("books").values(bookRow(authorId, isbn)).execute();

  it.skipIf(skip)(
    "rejects a taken unique value with E_UNIQUE_VIOLATION naming the field",
    async () => {
      const id = await author();
      const isbn = `978-${dialect}-${uuidv7()}`;
      await book(id, isbn);
      const error = await book(id, isbn).catch((e: unknown) => e);
      expect(isWisentError(error, "E_UNIQUE_VIOLATION")).toBe(true);
      // MySQL names only the index, which a model maps to its field; a query alone cannot.
      expect((error as { errors: { errors: unknown } }).errors.errors).toEqual(
        dialect === "mysql"
          ? { base: ["A value has already been taken."] }
          : { isbn: ["Isbn has already been taken."] },
      );
    },
  );

  it.skipIf(skip)(
    "rejects a delete the foreign key restricts with E_DEPENDENT_RECORDS or E_MISSING_REFERENCE, never a bare driver error",
    async () => {
      const id = await author();
      await book(id, `978-${dialect}-${uuidv7()}`);
      const error = await sql`delete from authors where id = ${id}`
        .execute(t.db.kysely)
        .catch((e: unknown) => e);
      // SQLite's foreign key error does not say which side it concerns (a model asks the catalog).
      const codes =
        dialect === "sqlite"
          ? ["E_DEPENDENT_RECORDS", "E_MISSING_REFERENCE"]
          : ["E_DEPENDENT_RECORDS"];
      expect(codes).toContain((error as { code?: unknown }).code);
    },
  );

  it.skipIf(skip)("rejects the same in a request's writing transaction", async () => {
    const id = await author();
    const isbn = `978-${dialect}-${uuidv7()}`;
    await book(id, isbn);
    const tx = await t.db.beginRequest({ write: true });
    try {
      const error = await book(id, isbn, tx.trx).catch((e: unknown) => e);
      expect(isWisentError(error, "E_UNIQUE_VIOLATION")).toBe(true);
    } finally {
      await tx.rollback();
    }
  });
});
