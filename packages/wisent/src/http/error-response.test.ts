import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { HttpError } from "../base/http-error.js";
import { UnavailableError } from "../base/unavailable-error.js";
import { WisentError } from "../base/wisent-error.js";
import { ValidationFailedError } from "../data/model.js";
import { ValidationErrors } from "../validation/validation-errors.js";
import { appThrowing, spyLogger } from "./test-support/app-throwing.js";

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
    expect(await res.json()).toEqual({
      error: "method not found: POST /x/",
      code: 405,
      error_code: "E_HTTP",
    });
  });

  it.each(["development", "production", "test"])("gives a JSON 404 no trace in %s", async (env) => {
    const res = await appThrowing(new HttpError(404, "path not found: GET /x/"), env).request(
      "/x",
      { headers: { accept: "application/json" } },
    );
    expect(await res.json()).toEqual({
      error: "path not found: GET /x/",
      code: 404,
      error_code: "E_HTTP",
    });
  });

  it("adds the trace of an unexpected error (a 500) in development", async () => {
    const res = await appThrowing(new TypeError("boom"), "development", spyLogger()).request("/x", {
      headers: { accept: "application/json" },
    });
    const body = await res.json();
    expect(body.code).toBe(500);
    expect(body.trace).toContain("TypeError: boom");
  });

  it("renders XML as <response code> with the error's message and stable code", async () => {
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
    expect(text).toContain("<error_code>E_HTTP</error_code>");
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

  it("falls back to the default format when ?format= itself is bad", async () => {
    const res = await appThrowing(new HttpError(406, "unknown format"), "production").request(
      "/x?format=yaml",
    );
    expect(res.status).toBe(406);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

/** A WisentError answers its code's status; nothing here knows where the error came from. */
describe("errorResponse for a WisentError", () => {
  it("answers the status of its code's row, with the stable code beside the status", async () => {
    const refused = new WisentError("E_INVALID_VALUE", "the database refused a value: 0x00");
    const res = await appThrowing(refused, "production").request("/x", {
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "the database refused a value: 0x00",
      code: 400,
      error_code: "E_INVALID_VALUE",
    });
  });

  it("answers the field errors a WisentError carries as a 422's", async () => {
    const taken = Object.assign(
      new WisentError("E_UNIQUE_VIOLATION", "Isbn has already been taken."),
      {
        errors: new ValidationErrors({ isbn: ["Isbn has already been taken."] }),
      },
    );
    const app = appThrowing(taken, "production");
    const json = await app.request("/x", { headers: { accept: "application/json" } });
    expect(json.status).toBe(422);
    expect(await json.json()).toEqual({ errors: { isbn: ["Isbn has already been taken."] } });
    const html = await app.request("/x");
    expect(await html.text()).toContain("<p>validation failed</p>");
  });

  it("gives the stable code in problem details too", async () => {
    const res = await appThrowing(new HttpError(404, "gone"), "production").request("/x", {
      headers: { accept: "application/problem+json" },
    });
    expect(await res.json()).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "gone",
      error_code: "E_HTTP",
    });
  });

  it("keeps a WisentError without a status a hidden, logged 500", async () => {
    const logger = spyLogger();
    const res = await appThrowing(
      new WisentError("E_CONFIG_INVALID", "SECRET_KEY_BASE is too short"),
      "production",
      logger,
    ).request("/x", { headers: { accept: "application/json" } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal Server Error", code: 500 });
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "unhandled error", error: "SECRET_KEY_BASE is too short" }),
    );
  });

  it.each([
    ["application/json", /^application\/json/],
    ["application/xml", /^application\/xml/],
    ["text/html", /^text\/html/],
  ])(
    "answers an UnavailableError 503 with Retry-After in %s, its message only in the log",
    async (accept, type) => {
      const logger = spyLogger();
      const down = new UnavailableError(
        "E_DATABASE_UNAVAILABLE",
        "database",
        "connect ECONNREFUSED 10.0.0.1",
        {
          log: { msg: "database unavailable", error: "connect ECONNREFUSED 10.0.0.1" },
        },
      );
      const res = await appThrowing(down, "production", logger).request("/widgets", {
        headers: { accept },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("content-type")).toMatch(type);
      const body = await res.text();
      expect(body).toContain("database unavailable: please try again shortly");
      expect(body).not.toContain("ECONNREFUSED");
      expect(logger.error).toHaveBeenCalledWith({
        msg: "database unavailable",
        request_id: "req-1",
        method: "GET",
        path: "/widgets",
        error: "connect ECONNREFUSED 10.0.0.1",
      });
    },
  );
});
