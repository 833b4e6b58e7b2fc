import { describe, expect, expectTypeOf, it } from "vitest";
import { App } from "../app/app.js";
import {
  ImagesResource,
  PeopleResource,
  UserProfilesResource,
  WidgetsResource,
} from "../app/test-support/resources.js";
import { camelize } from "../naming/index.js";
import { Resource } from "../resources/resource.js";
import type { Camel, ResourceNames, Words } from "./typed-names.js";

class NewsResource extends Resource<"news_id"> {}
class AdminPlanesResource extends Resource<"admin_plane_id"> {
  edit() {
    return new Response("edit");
  }
}

function build() {
  const app = new App({ name: "t" });
  const widgets = app.resource("/widgets", new WidgetsResource());
  const images = widgets.resource("/images", new ImagesResource());
  const people = app.resource("/people", new PeopleResource());
  const profiles = app.resource("/user_profiles", new UserProfilesResource());
  const news = app.resource("/news", new NewsResource());
  const planes = app.resource("/admin/planes", new AdminPlanesResource());
  const api = app.group("/api/v1").resource("/widgets", new WidgetsResource());
  return { app, widgets, images, people, profiles, news, planes, api };
}

describe("typed path helpers", () => {
  const { app, widgets, images, people, profiles, news, planes, api } = build();

  it("have the names the runtime namer gives (type and value agree)", () => {
    const typed = [widgets, images, people, profiles, news, planes, api].flatMap((g) =>
      Object.keys(g.paths),
    );
    const runtime = [...new Set(app.routes().map((r) => r.name))];
    expect(typed.sort()).toEqual(runtime.sort());
    expectTypeOf<keyof typeof widgets.paths>().toEqualTypeOf<
      "widgetsPath" | "widgetPath" | "newWidgetsPath" | "editWidgetPath"
    >();
    expectTypeOf<keyof typeof images.paths>().toEqualTypeOf<
      "widgetImagesPath" | "widgetImagePath" | "newWidgetImagesPath" | "editWidgetImagePath"
    >();
    expectTypeOf<keyof typeof people.paths>().toEqualTypeOf<"peoplePath" | "personPath">();
    expectTypeOf<keyof typeof profiles.paths>().toEqualTypeOf<
      "userProfilesPath" | "userProfilePath" | "newUserProfilesPath" | "editUserProfilePath"
    >();
    expectTypeOf<keyof typeof news.paths>().toEqualTypeOf<"newsIndexPath" | "newsPath">();
    expectTypeOf<keyof typeof planes.paths>().toEqualTypeOf<
      "adminPlanesPath" | "adminPlanePath" | "editAdminPlanePath"
    >();
    expectTypeOf<keyof typeof api.paths>().toEqualTypeOf<
      "apiV1WidgetsPath" | "apiV1WidgetPath" | "newAPIV1WidgetsPath" | "editAPIV1WidgetPath"
    >();
  });

  it("build the paths", () => {
    expect(widgets.paths.widgetPath({ widget_id: 7 })).toBe("/widgets/7");
    expect(images.paths.editWidgetImagePath({ widget_id: 7, image_id: 3 })).toBe(
      "/widgets/7/images/3/edit",
    );
    expect(images.paths.widgetImagesPath({ widget_id: 7, page: 2 })).toBe(
      "/widgets/7/images?page=2",
    );
    expect(widgets.paths.widgetsPath()).toBe("/widgets");
  });

  it("refuse unknown helper names and missing parameters at compile time", () => {
    // @ts-expect-error: no such route
    expect(widgets.paths.widgetzPath).toBeUndefined();
    // @ts-expect-error: people has no New route
    expect(people.paths.newPeoplePath).toBeUndefined();
    // @ts-expect-error: widget_id is required
    expect(() => widgets.paths.widgetPath({})).toThrow('needs "widget_id"');
    // @ts-expect-error: the parent's widget_id is required too
    expect(() => images.paths.widgetImagePath({ image_id: 1 })).toThrow('needs "widget_id"');
    // @ts-expect-error: parameters are required at all
    expect(() => widgets.paths.editWidgetPath()).toThrow();
  });

  it("camelize word lists as flect does (acronyms upper-cased after the first word)", () => {
    expectTypeOf<Camel<Words<"api/v1/user_ids">>>().toEqualTypeOf<"apiV1UserIds">();
    expect(camelize("api/v1/user_ids")).toBe("apiV1UserIds");
    expectTypeOf<Camel<["edit", "api", "v1", "widget"]>>().toEqualTypeOf<"editAPIV1Widget">();
    expectTypeOf<ResourceNames<[], "/mice", "mouse_id">["show"]>().toEqualTypeOf<"mousePath">();
  });
});
