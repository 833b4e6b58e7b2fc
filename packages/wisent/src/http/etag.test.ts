import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import "./respond.js";
import { ValidationErrors } from "../validation/validation-errors.js";

/** An app whose routes answer through c.respond, as generated actions do. */
function makeApp() {
  const app = new App({ name: "etags", env: "test" });
  let version = 1;
  app.get("/widgets", (c: Context) =>
    c.respond(200, {
      json: [{ id: "1", version }],
      xml: [{ id: "1", version }],
      html: () => `<p>${version}</p>`,
      headers: { "X-Total-Count": "1" },
    }),
  );
  app.post("/widgets", (c: Context) => c.respond(201, { json: { id: "2" } }));
  app.put("/widgets/{id}", (c: Context) =>
    c.respond(422, { json: new ValidationErrors({ title: ["Title can not be blank."] }) }),
  );
  app.get("/gone", () => {
    throw new ValidationErrors({ name: ["Name can not be blank."] });
  });
  return { app, bump: () => version++ };
}

const get = (app: App, path: string, headers: Record<string, string> = {}, method = "GET") =>
  app.fetch(new Request(`http://localhost${path}`, { method, headers }));

describe("c.respond's weak ETag", () => {
  it("tags JSON and XML answers of GET, and answers a matching If-None-Match with a bodiless 304", async () => {
    const { app, bump } = makeApp();
    for (const accept of ["application/json", "application/xml"]) {
      const first = await get(app, "/widgets", { accept });
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      const again = await get(app, "/widgets", { accept, "if-none-match": etag! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("x-total-count")).toBe("1");
      // Strong and listed forms match weakly, as If-None-Match compares.
      const listed = `"other", ${etag!.replace(/^W\//, "")}`;
      expect((await get(app, "/widgets", { accept, "if-none-match": listed })).status).toBe(304);
    }
    const etag = (await get(app, "/widgets.json")).headers.get("etag")!;
    bump();
    const changed = await get(app, "/widgets.json", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("tags HEAD alike, and leaves HTML, writes and errors untagged", async () => {
    const { app } = makeApp();
    const head = await get(app, "/widgets.json", {}, "HEAD");
    const etag = head.headers.get("etag");
    expect(etag).toBe((await get(app, "/widgets.json")).headers.get("etag"));
    expect((await get(app, "/widgets.json", { "if-none-match": etag! }, "HEAD")).status).toBe(304);
    expect((await get(app, "/widgets", { accept: "text/html" })).headers.get("etag")).toBeNull();
    const created = await app.fetch(
      new Request("http://localhost/widgets", {
        method: "POST",
        headers: { accept: "application/json", "if-none-match": "*" },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBeNull();
  });
});

describe("problem details (RFC 9457)", () => {
  const problem = { accept: "application/problem+json" };

  it("answers errors as problem+json when asked, and keeps the default JSON shape otherwise", async () => {
    const { app } = makeApp();
    const missing = await get(app, "/nope", problem);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    expect(await missing.json()).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "path not found: GET /nope/",
      error_code: "E_ROUTE_NOT_FOUND",
    });
    const plain = await get(app, "/nope", { accept: "application/json" });
    expect(await plain.json()).toEqual({
      error: "path not found: GET /nope/",
      code: 404,
      error_code: "E_ROUTE_NOT_FOUND",
    });
  });

  it("carries a 422's field errors as `errors`, from c.respond and from a thrown ValidationErrors", async () => {
    const { app } = makeApp();
    const put = await app.fetch(
      new Request("http://localhost/widgets/1", {
        method: "PUT",
        headers: { ...problem, "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(put.status).toBe(422);
    expect(put.headers.get("content-type")).toBe("application/problem+json");
    expect(await put.json()).toEqual({
      type: "about:blank",
      title: "Unprocessable Content",
      status: 422,
      detail: "validation failed",
      errors: { title: ["Title can not be blank."] },
    });
    const thrown = await get(app, "/gone", problem);
    expect(await thrown.json()).toMatchObject({
      status: 422,
      errors: { name: ["Name can not be blank."] },
    });
    const plain = await get(app, "/gone", { accept: "application/json" });
    expect(await plain.json()).toEqual({ errors: { name: ["Name can not be blank."] } });
  });

  it("ignores problem+json refused with q=0", async () => {
    const { app } = makeApp();
    const res = await get(app, "/nope.json", { accept: "application/problem+json;q=0, */*" });
    expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  });
});
