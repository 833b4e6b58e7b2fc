import type { Context, MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { Resource } from "../resources/resource.js";
import { FirstMatchRouter } from "../routes/first-match-router.js";
import { App, type AppOptions } from "./app.js";
import {
  GadgetsResource,
  HomeHandler,
  ImagesResource,
  PeopleResource,
  WidgetsResource,
} from "./test-support/resources.js";
import { NESTED_IMAGE_ROUTES, WIDGET_ROUTES } from "./test-support/spec-tables.js";

const HOST = "http://127.0.0.1:3000";

/** The whole suite runs on both routers the App can use (the shared case suite). */
const ROUTERS = [
  ["FirstMatchRouter", () => new FirstMatchRouter()],
  ["TrieRouter", () => new TrieRouter()],
] as const;

describe.each(ROUTERS)("App on %s", (_name, makeRouter) => {
  const newApp = (options: AppOptions) =>
    new App({ ...options, router: makeRouter() as AppOptions["router"] });
  function request(app: App, method: string, path: string, init: RequestInit = {}) {
    return app.fetch(new Request(`http://localhost${path}`, { method, ...init }));
  }

  async function text(app: App, method: string, path: string): Promise<[number, string]> {
    const res = await request(app, method, path);
    return [res.status, await res.text()];
  }

  function widgetsApp(): App {
    const app = newApp({ name: "coke", host: HOST });
    app.get("/", HomeHandler);
    const widgets = app.resource("/widgets", new WidgetsResource());
    widgets.resource("/images", new ImagesResource());
    return app;
  }

  describe("the route tables of docs/guides/routing.md", () => {
    const routes = widgetsApp().routes();

    it("starts with the root route named rootPath", () => {
      expect(routes[0]).toEqual({
        method: "GET",
        host: HOST,
        path: "/",
        aliases: [],
        name: "rootPath",
        handler: "HomeHandler",
      });
    });

    it.each(WIDGET_ROUTES.map((row, i) => [i, row] as const))("widgets row %i: %j", (i, row) => {
      expect(routes[1 + i]).toMatchObject({
        method: row.method,
        path: row.path,
        name: row.name,
        handler: `WidgetsResource.${row.operation}`,
      });
    });

    it.each(NESTED_IMAGE_ROUTES.map((row, i) => [i, row] as const))(
      "nested images row %i: %j",
      (i, row) => {
        expect(routes[1 + WIDGET_ROUTES.length + i]).toMatchObject({
          method: row.method,
          path: row.path,
          name: row.name,
          handler: `ImagesResource.${row.operation}`,
        });
      },
    );

    it("has no other routes", () => {
      expect(routes).toHaveLength(1 + WIDGET_ROUTES.length + NESTED_IMAGE_ROUTES.length);
    });
  });

  describe("resource dispatch (Buffalo Test_Resource, Test_ResourceOnResource)", () => {
    for (const prefix of ["/users", "/api/v1/users"]) {
      class UsersResource extends Resource<"user_id"> {
        override list(c: Context) {
          return c.text("list");
        }
        new(c: Context) {
          return c.text("new");
        }
        override show(c: Context) {
          return c.text(`show ${c.req.param("user_id")}`);
        }
        edit(c: Context) {
          return c.text(`edit ${c.req.param("user_id")}`);
        }
        override create(c: Context) {
          return c.text("create");
        }
        override update(c: Context) {
          return c.text(`update ${c.req.param("user_id")}`);
        }
        override destroy(c: Context) {
          return c.text(`destroy ${c.req.param("user_id")}`);
        }
      }
      const app = newApp({ name: "t" });
      app.resource(prefix, new UsersResource());
      it.each([
        ["GET", "", "list"],
        ["GET", "/new", "new"],
        ["GET", "/1", "show 1"],
        ["GET", "/1/edit", "edit 1"],
        ["POST", "", "create"],
        ["PUT", "/1", "update 1"],
        ["DELETE", "/1", "destroy 1"],
      ])(`${prefix}: %s %s -> %s`, async (method, path, body) => {
        expect(await text(app, method, `${prefix}${path}`)).toEqual([200, body]);
      });
    }

    it("dispatches nested resources with both ids (/widgets/42/images)", async () => {
      const app = widgetsApp();
      expect(await text(app, "GET", "/widgets/42/images")).toEqual([200, "images of 42"]);
      expect(await text(app, "GET", "/widgets/42/images/7")).toEqual([200, "image 7 of 42"]);
      expect(await text(app, "GET", "/widgets/42/images/new")).toEqual([200, "new image"]);
      expect(await text(app, "GET", "/widgets/42")).toEqual([200, "show 42"]);
    });

    it("routes New before Show, so /widgets/new is never shown", async () => {
      expect(await text(widgetsApp(), "GET", "/widgets/new")).toEqual([200, "new"]);
    });

    it("serves /widgets/new with Show when the resource has no New (Buffalo)", async () => {
      const app = newApp({ name: "t" });
      class CarsResource extends Resource<"car_id"> {
        override show(c: Context) {
          return c.text(`show ${c.req.param("car_id")}`);
        }
      }
      app.resource("/cars", new CarsResource());
      expect(await text(app, "GET", "/cars/new")).toEqual([200, "show new"]);
      expect(app.routes().map((r) => r.path)).not.toContain("/cars/new/");
    });

    it("adds New and Edit only when implemented (five routes otherwise)", () => {
      const app = newApp({ name: "t" });
      app.resource("/people", new PeopleResource());
      expect(app.routes().map((r) => `${r.method} ${r.path} ${r.name}`)).toEqual([
        "GET /people/ peoplePath",
        "POST /people/ peoplePath",
        "GET /people/{person_id}/ personPath",
        "PUT /people/{person_id}/ personPath",
        "DELETE /people/{person_id}/ personPath",
      ]);
    });

    it("answers 404 'resource not implemented' for every default operation", async () => {
      const app = newApp({ name: "t" });
      app.resource("/gadgets", new GadgetsResource());
      for (const [method, path] of [
        ["GET", "/gadgets"],
        ["GET", "/gadgets/1"],
        ["POST", "/gadgets"],
        ["PUT", "/gadgets/1"],
        ["DELETE", "/gadgets/1"],
      ] as const) {
        const res = await request(app, method, path, { headers: { Accept: "application/json" } });
        expect(res.status).toBe(404);
        expect(((await res.json()) as { error: string }).error).toBe("resource not implemented");
      }
    });

    it("takes the param key from the class name, and a static paramKey overrides it", () => {
      class Thing extends Resource {
        static override paramKey = "bazKey";
        edit(c: Context) {
          return c.text("edit");
        }
      }
      const app = newApp({ name: "t" });
      app.resource("/foo", new Thing());
      app.resource("/fooz", new WidgetsResource());
      const paths = app.routes().map((r) => r.path);
      expect(paths).toContain("/foo/{bazKey}/edit/");
      expect(paths).toContain("/fooz/{widget_id}/");
    });

    it("runs a resource's own middleware on its routes only (Buffalo Test_Resource_MW)", async () => {
      const requireGood: MiddlewareHandler = async (c, next) => {
        if (c.req.query("good") !== "true") return c.text("no good", 500);
        await next();
      };
      class GuardedResource extends Resource<"guarded_id"> {
        override list(c: Context) {
          return c.text("guarded list");
        }
        override middleware() {
          return [requireGood];
        }
      }
      const app = newApp({ name: "t" });
      app.resource("/foo", new GuardedResource());
      app.get("/open", (c) => c.text("open"));
      expect(await text(app, "GET", "/foo?good=true")).toEqual([200, "guarded list"]);
      expect(await text(app, "GET", "/foo")).toEqual([500, "no good"]);
      expect(await text(app, "GET", "/open")).toEqual([200, "open"]);
    });
  });

  describe("matching", () => {
    it.each([
      ["/foo", "/foo"],
      ["/foo", "/foo/"],
      ["/foo/", "/foo"],
      ["/foo/", "/foo/"],
    ])("mapped %s, requested %s: same route, no redirect", async (mapped, requested) => {
      const app = newApp({ name: "t" });
      app.get(mapped, (c) => c.text("foo"));
      expect(await text(app, "GET", requested)).toEqual([200, "foo"]);
    });

    it("matches routes in declaration order, first full match wins", async () => {
      const app = newApp({ name: "t" });
      // Both can answer /a/b (so neither is refused as shadowed): the first declared does.
      app.get("/a/{x:[a-m]}", (c) => c.text(`param ${c.req.param("x")}`));
      app.get("/a/{y}", (c) => c.text("later"));
      expect(await text(app, "GET", "/a/b")).toEqual([200, "param b"]);
      expect(await text(app, "GET", "/a/z")).toEqual([200, "later"]);
    });

    it("honours custom regexes in path parameters", async () => {
      const app = newApp({ name: "t" });
      app.get("/articles/{id:[0-9]+}", (c) => c.text(`article ${c.req.param("id")}`));
      expect(await text(app, "GET", "/articles/12")).toEqual([200, "article 12"]);
      expect((await request(app, "GET", "/articles/abc")).status).toBe(404);
      expect(app.routes()[0]?.name).toBe("articleId09Path");
    });

    it("answers HEAD wherever GET answers, without a body", async () => {
      const res = await request(widgetsApp(), "HEAD", "/widgets/5");
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("");
    });

    it("answers 405 with Allow for a path that exists only under other methods", async () => {
      const res = await request(widgetsApp(), "PATCH", "/widgets/5", {
        headers: { Accept: "application/json" },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, PUT, DELETE, HEAD, OPTIONS");
      expect(await res.json()).toMatchObject({
        error: "method not found: PATCH /widgets/5/",
        code: 405,
      });
    });

    it("answers 404 'path not found: GET /x/' for an unknown path", async () => {
      const res = await request(widgetsApp(), "GET", "/x", {
        headers: { Accept: "application/json" },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: "path not found: GET /x/", code: 404 });
    });

    it("gives a group's routes the group prefix (Buffalo Test_Router)", async () => {
      const app = newApp({ name: "t" });
      const group = app.group("/router/tests");
      for (const method of ["get", "post", "put", "delete", "options", "patch"] as const) {
        group[method]("/", (c) => c.text(`${c.req.method}|${c.req.path.replace(/\/$/, "")}`));
      }
      for (const method of ["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]) {
        expect(await text(app, method, "/router/tests")).toEqual([200, `${method}|/router/tests`]);
      }
      expect(app.routes()[0]?.path).toBe("/router/tests/");
    });

    it("strips a format extension before routing (/widgets/1.json is Show of 1)", async () => {
      expect(await text(widgetsApp(), "GET", "/widgets/1.json")).toEqual([200, "show 1"]);
      expect(await text(widgetsApp(), "GET", "/widgets.xml")).toEqual([200, "list"]);
    });
  });

  describe("middleware order", () => {
    function tag(name: string, log: string[]): MiddlewareHandler {
      return async (_c, next) => {
        log.push(name);
        await next();
      };
    }

    it("reaches only what is declared after it", async () => {
      const log: string[] = [];
      const app = newApp({ name: "t" });
      app.get("/before", (c) => c.text("before"));
      app.use(tag("late", log));
      app.get("/after", (c) => c.text("after"));
      await request(app, "GET", "/before");
      expect(log).toEqual([]);
      await request(app, "GET", "/after");
      expect(log).toEqual(["late"]);
    });

    it("gives a group its parent's middleware as it stood when the group was made", async () => {
      const log: string[] = [];
      const app = newApp({ name: "t" });
      app.use(tag("early", log));
      const admin = app.group("/admin");
      app.use(tag("after-group", log));
      admin.use(tag("admin", log));
      admin.get("/x", (c) => c.text("x"));
      app.get("/y", (c) => c.text("y"));
      await request(app, "GET", "/admin/x");
      expect(log).toEqual(["early", "admin"]);
      log.length = 0;
      await request(app, "GET", "/y");
      expect(log).toEqual(["early", "after-group"]);
    });

    it("gives a nested resource the middleware its parent group had when it was declared", async () => {
      const log: string[] = [];
      const app = newApp({ name: "t" });
      const widgets = app.resource("/widgets", new WidgetsResource());
      widgets.use(tag("widgets-group", log));
      widgets.resource("/images", new ImagesResource());
      await request(app, "GET", "/widgets/1");
      expect(log).toEqual([]);
      await request(app, "GET", "/widgets/1/images");
      expect(log).toEqual(["widgets-group"]);
    });
  });

  describe("route names and path helpers", () => {
    it("builds paths by route name, without the trailing slash", () => {
      const app = widgetsApp();
      expect(app.paths.rootPath!()).toBe("/");
      expect(app.paths.widgetsPath!()).toBe("/widgets");
      expect(app.paths.widgetPath!({ widget_id: 1 })).toBe("/widgets/1");
      expect(app.paths.editWidgetImagePath!({ widget_id: 1, image_id: "a b" })).toBe(
        "/widgets/1/images/a%20b/edit",
      );
      expect(app.pathFor("widgetPath", { widget_id: 1, page: 2, q: "x&y" })).toBe(
        "/widgets/1?page=2&q=x%26y",
      );
    });

    it("hands every request the app's path helpers, one object for all of them", async () => {
      const app = widgetsApp();
      const seen: unknown[] = [];
      app.get("/where", (c) => {
        const { paths } = c.get("wisent");
        seen.push(paths);
        return c.text(paths.widgetPath!({ widget_id: 7 }));
      });
      const first = await app.fetch(new Request("http://localhost/where"));
      await app.fetch(new Request("http://localhost/where"));
      expect(await first.text()).toBe("/widgets/7");
      expect(seen).toEqual([app.paths, app.paths]);
      expect(seen[0]).toBe(seen[1]);
    });

    it("errors naming the route and the parameter when one is missing", () => {
      expect(() => widgetsApp().paths.widgetPath!({})).toThrow(
        'missing parameters for /widgets/{widget_id}/: widgetPath needs "widget_id"',
      );
      expect(() => widgetsApp().pathFor("nopePath")).toThrow(
        "could not find a route named nopePath",
      );
    });

    it("suggests the route meant for a misspelled name (redirectTo's names too)", () => {
      expect(() => widgetsApp().pathFor("widgetPth")).toThrow(
        "could not find a route named widgetPth (did you mean widgetPath?)",
      );
      expect(() => widgetsApp().pathFor("nopePath")).not.toThrow("did you mean");
    });

    it("renames routes with .name() (Buffalo Test_App_RouteName)", () => {
      const app = newApp({ name: "t" });
      app.get("/peeps", (c) => c.text("p")).name("myPeeps");
      app.get("/cool", (c) => c.text("c")).name("coco_path");
      expect(app.routes().map((r) => r.name)).toEqual(["myPeepsPath", "cocoPath"]);
      expect(app.paths.myPeepsPath!()).toBe("/peeps");
      expect(app.paths.peepsPath).toBeUndefined();
    });

    it("lists aliases and answers on them", async () => {
      const app = newApp({ name: "t" });
      app.get("/", HomeHandler).alias("/home", "/index");
      expect(app.routes()[0]?.aliases).toEqual(["/home/", "/index/"]);
      expect(await text(app, "GET", "/home")).toEqual([200, "home"]);
    });

    it("refuses one name for two different path templates, naming both routes", () => {
      const app = newApp({ name: "t" });
      class CarsResource extends Resource<"car_id"> {}
      expect(() => app.resource("/car", new CarsResource())).toThrow(
        "route name carPath is used for two different paths: GET /car/ (CarsResource.List) and GET /car/{car_id}/ (CarsResource.Show)",
      );
      const other = newApp({ name: "t" });
      other.get("/a", HomeHandler).name("same");
      expect(() => other.get("/b", HomeHandler).name("same")).toThrow(
        "GET /a/ (HomeHandler) and GET /b/ (HomeHandler)",
      );
    });

    it("takes the host from HOST/PORT by default", () => {
      const app = newApp({ name: "t" });
      app.get("/", HomeHandler);
      expect(app.routes()[0]?.host).toMatch(/^https?:\/\//);
    });

    it("rejects an app without a usable name", () => {
      expect(() => newApp({ name: "" })).toThrow('option "name"');
      expect(() => newApp({ name: "1abc" })).toThrow('option "name"');
    });
  });
});
