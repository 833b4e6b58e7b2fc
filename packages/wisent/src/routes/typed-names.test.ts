import { describe, expect, expectTypeOf, it } from "vitest";
import { App } from "../app/app.js";
import {
  ImagesResource,
  PeopleResource,
  UserProfilesResource,
  WidgetsResource,
} from "../app/test-support/resources.js";
import { camelize } from "../naming/index.js";
import { Resource, SingletonResource } from "../resources/resource.js";
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

  it("agree with the runtime namer for every routing option, nested and grouped", () => {
    const app = new App({ name: "t" });
    class ArticlesResource extends Resource<"article_id"> {
      new() {
        return new Response("new");
      }
      publish() {
        return new Response("publish");
      }
      mark_read() {
        return new Response("read");
      }
      search() {
        return new Response("search");
      }
    }
    class CommentsResource extends Resource<"comment_id"> {
      edit() {
        return new Response("edit");
      }
      approve() {
        return new Response("approve");
      }
    }
    class AccountResource extends SingletonResource {
      new() {
        return new Response("new");
      }
      edit() {
        return new Response("edit");
      }
      verify() {
        return new Response("verify");
      }
    }
    const groups = [] as { paths: object }[];
    const api = app.group("/api/v1");
    const articles = api.resource("/articles", new ArticlesResource(), {
      except: ["destroy"],
      member: { publish: "post", mark_read: "put" },
      collection: { search: "get" },
      patch: true,
    });
    const comments = articles.resource("/comments", new CommentsResource(), {
      shallow: true,
      member: { approve: "post" },
    });
    const account = api.singleton("/account", new AccountResource(), {
      member: { verify: "post" },
    });
    class SearchableNewsResource extends Resource<"news_id"> {
      static override paramKey = "news_id";
      search() {
        return new Response("search");
      }
    }
    const news = app.resource("/news", new SearchableNewsResource(), {
      collection: { search: "get" },
    });
    expectTypeOf<keyof typeof news.paths>().toEqualTypeOf<
      "newsIndexPath" | "searchNewsIndexPath" | "newsPath"
    >();
    groups.push(articles, comments, account, news);
    const typed = groups.flatMap((g) => Object.keys(g.paths));
    expect(typed.sort()).toEqual([...new Set(app.routes().map((r) => r.name))].sort());
    expectTypeOf<keyof typeof articles.paths>().toEqualTypeOf<
      | "apiV1ArticlesPath"
      | "searchAPIV1ArticlesPath"
      | "newAPIV1ArticlesPath"
      | "apiV1ArticlePath"
      | "publishAPIV1ArticlePath"
      | "markReadAPIV1ArticlePath"
    >();
    expectTypeOf<keyof typeof comments.paths>().toEqualTypeOf<
      | "apiV1ArticleCommentsPath"
      | "apiV1CommentPath"
      | "editAPIV1CommentPath"
      | "approveAPIV1CommentPath"
    >();
    expectTypeOf<keyof typeof account.paths>().toEqualTypeOf<
      "apiV1AccountPath" | "newAPIV1AccountPath" | "editAPIV1AccountPath" | "verifyAPIV1AccountPath"
    >();
    expect(comments.paths.approveAPIV1CommentPath({ comment_id: 2 })).toBe(
      "/api/v1/comments/2/approve",
    );
    expect(articles.paths.markReadAPIV1ArticlePath({ article_id: 2 })).toBe(
      "/api/v1/articles/2/mark_read",
    );
    // @ts-expect-error: a shallow member route takes its own id only
    expect(() => comments.paths.apiV1CommentPath({ article_id: 1 })).toThrow('needs "comment_id"');
    // @ts-expect-error: the nested collection needs the parent's id
    expect(() => comments.paths.apiV1ArticleCommentsPath({})).toThrow('needs "article_id"');
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
