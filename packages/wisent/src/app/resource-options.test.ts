import type { Context } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ResourceOptions } from "../resources/options.js";
import { Resource, ResourceBase, SingletonResource } from "../resources/resource.js";
import { formatRouteJson } from "../routes/route-table.js";
import { App, type AppOptions } from "./app.js";

function answer(c: Context, what: string): Response {
  const params = Object.entries(c.req.param())
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
  return c.text(params ? `${what} ${params}` : what);
}

class WidgetsResource extends Resource<"widget_id"> {
  override list(c: Context) {
    return answer(c, "list");
  }
  override show(c: Context) {
    return answer(c, "show");
  }
  override update(c: Context) {
    return answer(c, "update");
  }
  new(c: Context) {
    return answer(c, "new");
  }
  edit(c: Context) {
    return answer(c, "edit");
  }
  publish(c: Context) {
    return answer(c, "publish");
  }
  search(c: Context) {
    return answer(c, "search");
  }
}

/** An image is found by its own id: the shallow routes carry no widget_id. */
class ImagesResource extends Resource<"image_id"> {
  override list(c: Context) {
    return answer(c, "images");
  }
  override show(c: Context) {
    return answer(c, "image");
  }
  edit(c: Context) {
    return answer(c, "edit image");
  }
}

/** Only what `only: ["list", "show"]` routes: no Create, Update or Destroy at all. */
class ReportsResource extends ResourceBase<"report_id"> {
  list(c: Context) {
    return answer(c, "reports");
  }
  show(c: Context) {
    return answer(c, "report");
  }
}

class ProfileResource extends SingletonResource {
  override show(c: Context) {
    return answer(c, "profile");
  }
  override update(c: Context) {
    return answer(c, "update profile");
  }
  edit(c: Context) {
    return answer(c, "edit profile");
  }
  verify(c: Context) {
    return answer(c, "verify profile");
  }
}

function newApp(options: Partial<AppOptions> = {}): App {
  return new App({ name: "t", host: "http://h", ...options });
}

async function call(app: App, method: string, path: string): Promise<[number, string]> {
  const res = await app.fetch(new Request(`http://localhost${path}`, { method }));
  return [res.status, await res.text()];
}

function rows(app: App): string[] {
  return app.routes().map((r) => `${r.method} ${r.path} ${r.name} ${r.handler}`);
}

describe("resource options", () => {
  it("only: routes just the listed operations; the others answer 404/405 as missing routes", async () => {
    const app = newApp();
    const reports = app.resource("/reports", new ReportsResource(), { only: ["list", "show"] });
    expect(rows(app)).toEqual([
      "GET /reports/ reportsPath ReportsResource.List",
      "GET /reports/{report_id}/ reportPath ReportsResource.Show",
    ]);
    expect(await call(app, "GET", "/reports/4")).toEqual([200, "report report_id=4"]);
    const put = await app.fetch(new Request("http://localhost/reports/4", { method: "PUT" }));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await call(app, "GET", "/reports/new"))[1]).toBe("report report_id=new");
    expect(reports.paths.reportPath({ report_id: 4 })).toBe("/reports/4");
    expectTypeOf<keyof typeof reports.paths>().toEqualTypeOf<"reportsPath" | "reportPath">();
  });

  it("except: leaves the listed operations out, New and Edit included", async () => {
    const app = newApp();
    const widgets = app.resource("/widgets", new WidgetsResource(), {
      except: ["destroy", "new", "edit"],
    });
    expect(rows(app).map((r) => r.split(" ").slice(0, 2).join(" "))).toEqual([
      "GET /widgets/",
      "POST /widgets/",
      "GET /widgets/{widget_id}/",
      "PUT /widgets/{widget_id}/",
    ]);
    expect((await call(app, "DELETE", "/widgets/1"))[0]).toBe(405);
    expectTypeOf<keyof typeof widgets.paths>().toEqualTypeOf<"widgetsPath" | "widgetPath">();
  });

  it("refuses unknown operations, both only and except, and a missing handler, naming them", () => {
    const app = newApp();
    // @ts-expect-error: "index" is no operation
    expect(() => app.resource("/a", new WidgetsResource(), { only: ["index"] })).toThrow(
      'resource option only: unknown operation "index"',
    );
    expect(() =>
      // @ts-expect-error: only and except exclude each other
      app.resource("/b", new WidgetsResource(), { only: ["list"], except: ["show"] }),
    ).toThrow("give only or except, not both");
    expect(() =>
      app.resource("/c", new ReportsResource() as unknown as WidgetsResource, { only: ["create"] }),
    ).toThrow(
      "ReportsResource has no create(c) method for POST /c: add it, or leave the route out with only/except",
    );
    // @ts-expect-error: only lists new, which ReportsResource does not implement
    expect(() => app.resource("/d", new ReportsResource(), { only: ["list", "new"] })).toThrow(
      "only: lists new but the resource has no new(c) method",
    );
    expect(() => app.resource("/e", new WidgetsResource(), { member: { show: "get" } })).toThrow(
      "show is a standard operation",
    );
    const fetching = { member: { publish: "fetch" } } as const;
    // @ts-expect-error: "fetch" is no HTTP method of a declared route
    const declareFetch = () => app.resource("/f", new WidgetsResource(), fetching);
    expect(declareFetch).toThrow('publish: "fetch" is not one of get, post, put, patch, delete');
  });

  it("types: the resource must have exactly the handlers its options route", () => {
    const app = newApp();
    // @ts-expect-error: without only/except, Create, Update and Destroy are routed and missing
    expect(() => app.resource("/reports", new ReportsResource())).toThrow("no create(c) method");
    const publishing = { only: ["list"], member: { publish: "post" } } as const;
    // @ts-expect-error: ReportsResource has no publish(c) for its member route
    const declarePublish = () => app.resource("/r2", new ReportsResource(), publishing);
    expect(declarePublish).toThrow("no publish(c) method");
    const searching = { only: ["list"], collection: { search: "get" } } as const;
    // @ts-expect-error: nor a search(c) for its collection route
    const declareSearch = () => app.resource("/r3", new ReportsResource(), searching);
    expect(declareSearch).toThrow("no search(c) method");
    // With only what it has, it is accepted (no error to expect).
    app.resource("/r4", new ReportsResource(), { only: ["list", "show"] });
    // Options built elsewhere, typed only as ResourceOptions, are checked when declared.
    const built: ResourceOptions = { member: { publish: "post" } };
    const widgets = newApp().resource("/widgets", new WidgetsResource(), built);
    expect(Object.keys(widgets.paths)).toContain("publishWidgetPath");
  });

  it("member and collection: registered with the resource, collection routes ahead of Show", async () => {
    const app = newApp();
    const widgets = app.resource("/widgets", new WidgetsResource(), {
      member: { publish: "post" },
      collection: { search: "get" },
    });
    expect(rows(app)).toEqual([
      "GET /widgets/ widgetsPath WidgetsResource.List",
      "POST /widgets/ widgetsPath WidgetsResource.Create",
      "GET /widgets/search/ searchWidgetsPath WidgetsResource.Search",
      "GET /widgets/new/ newWidgetsPath WidgetsResource.New",
      "GET /widgets/{widget_id}/ widgetPath WidgetsResource.Show",
      "PUT /widgets/{widget_id}/ widgetPath WidgetsResource.Update",
      "DELETE /widgets/{widget_id}/ widgetPath WidgetsResource.Destroy",
      "GET /widgets/{widget_id}/edit/ editWidgetPath WidgetsResource.Edit",
      "POST /widgets/{widget_id}/publish/ publishWidgetPath WidgetsResource.Publish",
    ]);
    expect(await call(app, "GET", "/widgets/search")).toEqual([200, "search"]);
    expect(await call(app, "POST", "/widgets/7/publish")).toEqual([200, "publish widget_id=7"]);
    expect(await call(app, "GET", "/widgets/7")).toEqual([200, "show widget_id=7"]);
    expect(widgets.paths.publishWidgetPath({ widget_id: 7 })).toBe("/widgets/7/publish");
    expect(widgets.paths.searchWidgetsPath({ q: "gear" })).toBe("/widgets/search?q=gear");
    expect(app.pathFor("publishWidgetPath", { widget_id: 1 })).toBe("/widgets/1/publish");
    // @ts-expect-error: widget_id is required by the member route
    expect(() => widgets.paths.publishWidgetPath({})).toThrow('needs "widget_id"');
    // @ts-expect-error: no such declared route
    expect(widgets.paths.archiveWidgetPath).toBeUndefined();
  });

  it("patch: Update answers PATCH too, listed after PUT; the default is PUT only", async () => {
    const plain = newApp();
    plain.resource("/widgets", new WidgetsResource());
    expect(plain.routes().some((r) => r.method === "PATCH")).toBe(false);
    const refused = await plain.fetch(
      new Request("http://localhost/widgets/1", { method: "PATCH" }),
    );
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, PUT, DELETE, HEAD, OPTIONS");

    const app = newApp();
    app.resource("/widgets", new WidgetsResource(), { patch: true });
    expect(rows(app).filter((r) => r.includes("Update"))).toEqual([
      "PUT /widgets/{widget_id}/ widgetPath WidgetsResource.Update",
      "PATCH /widgets/{widget_id}/ widgetPath WidgetsResource.Update",
    ]);
    expect(await call(app, "PATCH", "/widgets/3")).toEqual([200, "update widget_id=3"]);

    const appWide = newApp({ patch: true });
    appWide.resource("/widgets", new WidgetsResource());
    appWide.resource("/gizmos", new WidgetsResource(), { patch: false });
    appWide.singleton("/profile", new ProfileResource());
    expect(
      appWide
        .routes()
        .filter((r) => r.method === "PATCH")
        .map((r) => r.path),
    ).toEqual(["/widgets/{widget_id}/", "/profile/"]);
  });

  it("singleton: no List and no id, named after the resource, nests and takes member routes", async () => {
    const app = newApp();
    const profile = app.singleton("/profile", new ProfileResource(), {
      member: { verify: "post" },
    });
    expect(rows(app)).toEqual([
      "POST /profile/ profilePath ProfileResource.Create",
      "GET /profile/ profilePath ProfileResource.Show",
      "PUT /profile/ profilePath ProfileResource.Update",
      "DELETE /profile/ profilePath ProfileResource.Destroy",
      "GET /profile/edit/ editProfilePath ProfileResource.Edit",
      "POST /profile/verify/ verifyProfilePath ProfileResource.Verify",
    ]);
    expect(await call(app, "GET", "/profile")).toEqual([200, "profile"]);
    expect(await call(app, "GET", "/profile/edit")).toEqual([200, "edit profile"]);
    expect(await call(app, "POST", "/profile/verify")).toEqual([200, "verify profile"]);
    expect((await call(app, "POST", "/profile"))[0]).toBe(404);
    expect(profile.paths.editProfilePath()).toBe("/profile/edit");
    expectTypeOf<keyof typeof profile.paths>().toEqualTypeOf<
      "profilePath" | "editProfilePath" | "verifyProfilePath"
    >();
    // @ts-expect-error: ProfileResource has no new(c), so no New route
    expect(profile.paths.newProfilePath).toBeUndefined();

    const addresses = profile.resource("/addresses", new ImagesResource());
    expect(Object.keys(addresses.paths)).toContain("profileAddressesPath");
    expect(app.routes().at(-1)?.path).toBe("/profile/addresses/{image_id}/edit/");
    expect(await call(app, "GET", "/profile/addresses/2")).toEqual([200, "image image_id=2"]);
    // @ts-expect-error: a singular resource has no collection routes
    expect(() => app.singleton("/me", new ProfileResource(), { collection: { x: "get" } })).toThrow(
      "a singular resource has no collection routes",
    );
    expect(() => app.singleton("/me", new ProfileResource(), { only: ["list" as never] })).toThrow(
      'unknown operation "list"',
    );
  });

  it("shallow: collection routes stay nested, routes on one record move to /images/{image_id}", async () => {
    const app = newApp();
    const widgets = app.resource("/widgets", new WidgetsResource(), { only: ["show"] });
    const images = widgets.resource("/images", new ImagesResource(), {
      shallow: true,
      only: ["list", "show", "edit"],
    });
    expect(rows(app)).toEqual([
      "GET /widgets/{widget_id}/ widgetPath WidgetsResource.Show",
      "GET /widgets/{widget_id}/images/ widgetImagesPath ImagesResource.List",
      "GET /images/{image_id}/ imagePath ImagesResource.Show",
      "GET /images/{image_id}/edit/ editImagePath ImagesResource.Edit",
    ]);
    expect(await call(app, "GET", "/widgets/1/images")).toEqual([200, "images widget_id=1"]);
    // Looked up by its own id: the route has no widget_id to scope it by.
    expect(await call(app, "GET", "/images/9")).toEqual([200, "image image_id=9"]);
    expect(images.paths.imagePath({ image_id: 9 })).toBe("/images/9");
    expect(images.paths.widgetImagesPath({ widget_id: 1 })).toBe("/widgets/1/images");
    expectTypeOf<keyof typeof images.paths>().toEqualTypeOf<
      "widgetImagesPath" | "imagePath" | "editImagePath"
    >();
    // @ts-expect-error: the shallow member route needs its own id, not the parent's...
    expect(() => images.paths.imagePath({ widget_id: 1 })).toThrow('needs "image_id"');
    // ...and the nested collection still needs it.
    // @ts-expect-error: widget_id is required
    expect(() => images.paths.widgetImagesPath({})).toThrow('needs "widget_id"');
  });

  it("works in groups: names, paths and shallow routes take the group's prefix", async () => {
    const app = newApp();
    const admin = app.group("/admin");
    const widgets = admin.resource("/widgets", new WidgetsResource(), {
      only: ["show"],
      member: { publish: "post" },
      collection: { search: "get" },
    });
    const images = widgets.resource("/images", new ImagesResource(), {
      shallow: true,
      only: ["list", "show"],
    });
    const profile = admin.singleton("/profile", new ProfileResource(), { only: ["show"] });
    expect(rows(app)).toEqual([
      "GET /admin/widgets/search/ searchAdminWidgetsPath WidgetsResource.Search",
      "GET /admin/widgets/{widget_id}/ adminWidgetPath WidgetsResource.Show",
      "POST /admin/widgets/{widget_id}/publish/ publishAdminWidgetPath WidgetsResource.Publish",
      "GET /admin/widgets/{widget_id}/images/ adminWidgetImagesPath ImagesResource.List",
      "GET /admin/images/{image_id}/ adminImagePath ImagesResource.Show",
      "GET /admin/profile/ adminProfilePath ProfileResource.Show",
    ]);
    expectTypeOf<keyof typeof widgets.paths>().toEqualTypeOf<
      "searchAdminWidgetsPath" | "adminWidgetPath" | "publishAdminWidgetPath"
    >();
    expectTypeOf<keyof typeof images.paths>().toEqualTypeOf<
      "adminWidgetImagesPath" | "adminImagePath"
    >();
    expectTypeOf<keyof typeof profile.paths>().toEqualTypeOf<"adminProfilePath">();
    expect(images.paths.adminImagePath({ image_id: 2 })).toBe("/admin/images/2");
    expect(await call(app, "GET", "/admin/images/2")).toEqual([200, "image image_id=2"]);
    expect(await call(app, "GET", "/admin/widgets/search")).toEqual([200, "search"]);
  });

  it("every option shows in the JSON routes table", () => {
    const app = newApp();
    app.resource("/widgets", new WidgetsResource(), {
      only: ["show", "update"],
      member: { publish: "post" },
      collection: { search: "get" },
      patch: true,
    });
    app.singleton("/profile", new ProfileResource(), { only: ["show"] });
    const json = JSON.parse(formatRouteJson(app.routes())) as { method: string; name: string }[];
    expect(json.map((r) => `${r.method} ${r.name}`)).toEqual([
      "GET searchWidgetsPath",
      "GET widgetPath",
      "PUT widgetPath",
      "PATCH widgetPath",
      "POST publishWidgetPath",
      "GET profilePath",
    ]);
  });
});
