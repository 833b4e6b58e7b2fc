import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it, vi } from "vitest";
import type { WisentRuntime } from "../app/runtime.js";
import { HttpError } from "../base/http-error.js";
import { ValidationFailedError } from "../data/model.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import { errorResponse } from "./error-response.js";
import type { Logger } from "./logger.js";

function appThrowing(error: unknown, env: string, logger?: Logger) {
  const app = new Hono();
  app.onError(errorResponse);
  app.use("*", async (c, next) => {
    c.set("wisent", { name: "shop", env, api: false } as WisentRuntime);
    c.set("requestId", "req-1");
    if (logger) c.set("logger", logger);
    await next();
  });
  app.all("*", () => {
    throw error;
  });
  return app;
}

const spyLogger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

describe("errorResponse", () => {
  it("renders an HttpError as JSON without trace in production, copying its headers", async () => {
    const err = new HttpError(405, "method not found: POST /x/", {
      headers: { Allow: "GET, HEAD" },
    });
    const res = await appThrowing(err, "production").request("/x", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: "method not found: POST /x/", code: 405 });
  });

  it.each(["development", "production", "test"])("gives a JSON 404 no trace in %s", async (env) => {
    const res = await appThrowing(new HttpError(404, "path not found: GET /x/"), env).request(
      "/x",
      { headers: { accept: "application/json" } },
    );
    expect(await res.json()).toEqual({ error: "path not found: GET /x/", code: 404 });
  });

  it("adds the trace of an unexpected error (a 500) in development", async () => {
    const res = await appThrowing(new TypeError("boom"), "development", spyLogger()).request("/x", {
      headers: { accept: "application/json" },
    });
    const body = await res.json();
    expect(body.code).toBe(500);
    expect(body.trace).toContain("TypeError: boom");
  });

  it("renders XML as <response code>", async () => {
    const res = await appThrowing(
      new HttpError(404, "path not found: GET /x/"),
      "production",
    ).request("/x.xml", {
      headers: { accept: "application/xml" },
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const text = await res.text();
    expect(text).toContain('<response code="404">');
    expect(text).toContain("<error>path not found: GET /x/</error>");
    expect(text).not.toContain("<trace>");
  });

  it("renders a readable HTML page with the message escaped, a stack only for a 500 in development", async () => {
    const prod = await appThrowing(new HttpError(404, "no <widget>"), "production").request("/x");
    expect(prod.status).toBe(404);
    const page = await prod.text();
    expect(page).toContain("<h1>404 Not Found</h1>");
    expect(page).toContain("no &lt;widget&gt;");
    expect(page).not.toContain("<pre>");
    const dev = await appThrowing(new HttpError(404, "gone"), "development").request("/x");
    expect(await dev.text()).not.toContain("<pre>");
    const crash = await appThrowing(new TypeError("boom"), "development", spyLogger()).request(
      "/x",
    );
    expect(await crash.text()).toContain("<pre>TypeError: boom");
  });

  it("hides unexpected errors in production and logs them with the request id", async () => {
    const logger = spyLogger();
    const res = await appThrowing(new Error("db password leaked"), "production", logger).request(
      "/x",
      {
        headers: { accept: "application/json" },
      },
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal Server Error", code: 500 });
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ request_id: "req-1", error: "db password leaked" }),
    );
  });

  it("shows an unexpected error's message in development", async () => {
    const res = await appThrowing(new TypeError("boom"), "development", spyLogger()).request("/x", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(500);
    expect((await res.json()).error).toBe("boom");
  });

  it("keeps the status and headers of Hono's HTTPException", async () => {
    const err = new HTTPException(401, {
      res: new Response("Unauthorized", {
        status: 401,
        headers: { "WWW-Authenticate": 'Basic realm="x"' },
      }),
    });
    const res = await appThrowing(err, "production").request("/x", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="x"');
    expect((await res.json()).code).toBe(401);
  });

  it("renders ValidationErrors as 422 in every format", async () => {
    const errors = new ValidationErrors({ title: ["Title can not be blank."] });
    const app = appThrowing(errors, "production");
    const json = await app.request("/x", { headers: { accept: "application/json" } });
    expect(json.status).toBe(422);
    expect(await json.json()).toEqual({ errors: { title: ["Title can not be blank."] } });
    const xml = await app.request("/x", { headers: { accept: "application/xml" } });
    expect(await xml.text()).toContain('<error field="title">Title can not be blank.</error>');
    const html = await app.request("/x");
    expect(html.status).toBe(422);
    expect(await html.text()).toContain("Title can not be blank.");
  });

  it("renders a model's ValidationFailedError with its field errors", async () => {
    const errors = new ValidationErrors({ isbn: ["Isbn has already been taken."] });
    const app = appThrowing(new ValidationFailedError("book", errors), "production");
    const json = await app.request("/x", { headers: { accept: "application/json" } });
    expect(json.status).toBe(422);
    expect(await json.json()).toEqual({ errors: { isbn: ["Isbn has already been taken."] } });
  });

  // A constraint error no model caught (a query written by hand), as each driver reports it.
  it.each([
    [
      "SQLite unique",
      Object.assign(new Error("UNIQUE constraint failed: books.isbn"), {
        code: "SQLITE_CONSTRAINT_UNIQUE",
      }),
      422,
      { errors: { isbn: ["Isbn has already been taken."] } },
    ],
    [
      "PostgreSQL unique",
      Object.assign(new Error("duplicate key"), {
        code: "23505",
        detail: "Key (isbn)=(978) already exists.",
      }),
      422,
      { errors: { isbn: ["Isbn has already been taken."] } },
    ],
    [
      "PostgreSQL unique within a scope",
      Object.assign(new Error("duplicate key"), {
        code: "23505",
        detail: "Key (user_id, name)=(0190, Garden) already exists.",
      }),
      422,
      { errors: { name: ["Name has already been taken."] } },
    ],
    [
      "SQLite unique within a scope",
      Object.assign(new Error("UNIQUE constraint failed: projects.user_id, projects.name"), {
        code: "SQLITE_CONSTRAINT_UNIQUE",
      }),
      422,
      { errors: { name: ["Name has already been taken."] } },
    ],
    [
      "PostgreSQL missing parent",
      Object.assign(new Error("violates foreign key"), {
        code: "23503",
        detail: 'Key (author_id)=(x) is not present in table "authors".',
      }),
      422,
      { errors: { author_id: ["Author must exist."] } },
    ],
    [
      "MySQL restricted delete",
      Object.assign(new Error("Cannot delete or update a parent row"), { errno: 1451 }),
      409,
      { error: "the record is still referenced by other records", code: 409 },
    ],
  ])("answers a %s error as a client error, never a 500", async (_, error, status, body) => {
    const app = appThrowing(error, "production");
    const res = await app.request("/x", { headers: { accept: "application/json" } });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual(body);
  });

  it("falls back to the default format when ?format= itself is bad", async () => {
    const res = await appThrowing(new HttpError(406, "unknown format"), "production").request(
      "/x?format=yaml",
    );
    expect(res.status).toBe(406);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

describe("errorResponse while the database is unavailable", () => {
  const refused = new AggregateError([
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
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
      const logger = spyLogger();
      const res = await appThrowing(refused, "production", logger).request("/widgets", {
        headers: { accept },
      });
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
      const logger = spyLogger();
      const missing = Object.assign(new Error(message), fields);
      const res = await appThrowing(missing, "production", logger).request("/widgets", {
        headers: { accept: "application/json" },
      });
      expect(res.status).toBe(503);
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({
          msg: "database unavailable",
          error: `${message}: create it with \`wisent db create\` (or \`wisent db prepare\`, which also runs the migrations)`,
        }),
      );
    },
  );

  it("keeps a bad query a 500", async () => {
    const syntax = Object.assign(new Error("syntax error"), { code: "42601" });
    const res = await appThrowing(syntax, "production", spyLogger()).request("/widgets", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(500);
  });
});

describe("errorResponse for a value the database refuses", () => {
  it("answers 400 with the database's reason (PostgreSQL 22021, a NUL byte in text)", async () => {
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: "22021",
    });
    const res = await appThrowing(nul, "production", spyLogger()).request("/widgets", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'the database refused a value: invalid byte sequence for encoding "UTF8": 0x00',
      code: 400,
    });
  });
});
