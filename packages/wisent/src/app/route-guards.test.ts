import type { Context, MiddlewareHandler } from "hono";
import { describe, expect, it, vi } from "vitest";
import { Resource } from "../resources/resource.js";
import { App } from "./app.js";
import {
  bringsRouteGuards,
  marksAuthentication,
  type ResourceGuardOptions,
  type RouteGuards,
  routeGuardsBrought,
} from "./route-guards.js";

class NotesResource extends Resource<"note_id"> {
  override list(c: Context) {
    return c.json([]);
  }
  override show(c: Context) {
    return c.json({ id: c.req.param("note_id") });
  }
}

/** Guards of an authentication of the test's own: a header signs in; every call is recorded. */
function headerGuards() {
  const asked: ResourceGuardOptions[] = [];
  const checked = vi.fn();
  const guards: RouteGuards = {
    requireAuthentication: () =>
      marksAuthentication(async (c, next) => {
        if (c.req.header("x-user") === undefined) return c.text("sign in", 401);
        await next();
      }),
    resourceGuard: (options) => {
      asked.push(options);
      return undefined;
    },
    parentGuard: () => [],
    checkRoutes: checked,
  };
  const middleware: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  return { guards, asked, checked, middleware: bringsRouteGuards(middleware, guards) };
}

const get = (app: App, path: string, headers: Record<string, string> = {}) =>
  app.fetch(new Request(`http://localhost${path}`, { headers }));

describe("route guards", () => {
  it("are those the middleware given to use() brings", () => {
    const { guards, middleware } = headerGuards();
    const plain: MiddlewareHandler = async (_c, next) => next();
    expect(routeGuardsBrought([plain, middleware])).toBe(guards);
    expect(routeGuardsBrought([plain])).toBeUndefined();
  });

  it("map a resource declared after the middleware that brought them", async () => {
    const { asked, checked, middleware } = headerGuards();
    const app = new App({ name: "notes", api: true });
    app.use(middleware);
    app.resource("/notes", new NotesResource(), { authenticate: ["show"], only: ["list", "show"] });
    expect(asked.map((o) => o.operation)).toEqual(["list", "show"]);
    // OpenAPI knows the secured route by its guard's mark.
    const paths = app.openApiDocument({ version: "1" }).paths as Record<string, { get: object }>;
    expect(paths["/notes/{note_id}"]?.get).toHaveProperty("security");
    expect((await get(app, "/notes/1.json")).status).toBe(401);
    expect((await get(app, "/notes/1.json", { "x-user": "ada" })).status).toBe(200);
    expect((await get(app, "/notes.json")).status).toBe(200);
    expect(checked).toHaveBeenCalledTimes(1);
  });

  it("without authentication, make a secured route fail naming the middleware to declare", async () => {
    const app = new App({ name: "notes", api: true });
    app.resource("/notes", new NotesResource(), { authenticate: true, only: ["show"] });
    const paths = app.openApiDocument({ version: "1" }).paths as Record<string, { get: object }>;
    expect(paths["/notes/{note_id}"]?.get).toHaveProperty("security");
    const res = await get(app, "/notes/1.json");
    expect(res.status).toBe(500);
  });
});
