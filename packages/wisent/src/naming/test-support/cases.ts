/**
 * Shared case tables for the naming tests: Buffalo's and its inflector flect's behaviour, plus our
 * deliberate improvements, which are marked where they differ from Buffalo
 * (docs/explanation/differences-from-buffalo-and-rails.md).
 */

/** Singular <-> plural pairs; every pair must round-trip in both directions. */
export const INFLECTION_CASES: ReadonlyArray<readonly [singular: string, plural: string]> = [
  ["person", "people"],
  ["mouse", "mice"],
  ["status", "statuses"],
  ["news", "news"],
  // flect v1.0.3 leaves "menus" unchanged (Buffalo's `menus_id`); we singularize it.
  ["menu", "menus"],
  ["category", "categories"],
  ["media_service", "media_services"],
  // pluralize alone singularizes "cookies" to "cooky"; we add a rule.
  ["cookie", "cookies"],
  ["child", "children"],
  ["image", "images"],
  ["resource", "resources"],
  ["case", "cases"],
  ["widget", "widgets"],
  ["car", "cars"],
  ["ouch", "ouches"],
  ["UserProfile", "UserProfiles"],
  ["APIKey", "APIKeys"],
  ["HTMLPage", "HTMLPages"],
  ["Person", "People"],
  ["admin/widget", "admin/widgets"],
  ["user-profile", "user-profiles"],
  ["UserID", "UserIDs"],
  ["rookie", "rookies"],
  ["city", "cities"],
  ["box", "boxes"],
];

/** Identifier -> words. */
export const WORD_CASES: ReadonlyArray<readonly [input: string, words: readonly string[]]> = [
  ["APIKeys", ["API", "Keys"]],
  ["HTMLPages", ["HTML", "Pages"]],
  ["UserID", ["User", "ID"]],
  ["UserIDs", ["User", "IDs"]],
  ["APIs", ["APIs"]],
  ["ShortURLsList", ["Short", "URLs", "List"]],
  ["HTTPSServer", ["HTTPS", "Server"]],
  ["ASet", ["A", "Set"]],
  ["user_profile", ["user", "profile"]],
  ["user-profile", ["user", "profile"]],
  ["admin/widget", ["admin", "widget"]],
  ["bob dylan", ["bob", "dylan"]],
  ["foo:bar", ["foo", "bar"]],
  ["UserProfile", ["User", "Profile"]],
  ["XMLHttpRequest", ["XML", "Http", "Request"]],
  ["id", ["ID"]],
  ["Id", ["Id"]],
  ["user_Id", ["user", "Id"]],
  ["U$er", ["U", "er"]],
  ["{widget_id}", ["{widget", "id}"]],
  ["index.html", ["index.html"]],
  ["", []],
];

/** input -> [camelize, pascalize, underscore]. */
export const CASING_CASES: ReadonlyArray<
  readonly [input: string, camel: string, pascal: string, snake: string]
> = [
  ["widget_id", "widgetID", "WidgetID", "widget_id"],
  ["WidgetID", "widgetID", "WidgetID", "widget_id"],
  ["bob dylan", "bobDylan", "BobDylan", "bob_dylan"],
  ["user_profile", "userProfile", "UserProfile", "user_profile"],
  ["UserProfile", "userProfile", "UserProfile", "user_profile"],
  ["user-profile", "userProfile", "UserProfile", "user_profile"],
  ["APIKeys", "apiKeys", "APIKeys", "api_keys"],
  ["api_key", "apiKey", "APIKey", "api_key"],
  ["HTMLPages", "htmlPages", "HTMLPages", "html_pages"],
  ["admin/widget", "adminWidget", "AdminWidget", "admin_widget"],
  ["foo_bar", "fooBar", "FooBar", "foo_bar"],
  ["AdminUser", "adminUser", "AdminUser", "admin_user"],
  ["admin-user", "adminUser", "AdminUser", "admin_user"],
  ["U$er", "uEr", "UEr", "u_er"],
  ["json_url_uuid", "jsonURLUUID", "JSONURLUUID", "json_url_uuid"],
  ["my_css_db_vm", "myCSSDBVM", "MyCSSDBVM", "my_css_db_vm"],
  ["utf8_ok", "utf8OK", "UTF8OK", "utf8_ok"],
  ["index.html", "indexhtml", "Indexhtml", "indexhtml"],
  // A mixed-case word is kept even when it spells an acronym (flect does the same).
  ["foozWidgetId", "foozWidgetId", "FoozWidgetId", "fooz_widget_id"],
];

/**
 * Resource class name -> param key: every row of section 1's table (flect v1.0.3 run), except
 * `MenusResource`, where Buffalo says `menus_id` because flect cannot singularize "menus".
 */
export const PARAM_KEY_CASES: ReadonlyArray<readonly [className: string, paramKey: string]> = [
  ["WidgetsResource", "widget_id"],
  ["UserProfilesResource", "user_profile_id"],
  ["AdminWidgetsResource", "admin_widget_id"],
  ["PeopleResource", "person_id"],
  ["CarsResource", "car_id"],
  ["ResourcesResource", "resource_id"],
  ["ImagesResource", "image_id"],
  ["UserResource", "user_id"],
  ["MiceResource", "mouse_id"],
  ["NewsResource", "news_id"],
  ["StatusResource", "status_id"],
  ["APIKeysResource", "api_key_id"],
  ["HTMLPagesResource", "html_page_id"],
  ["userResource", "user_id"],
  ["resourceHandler", "resource_handler_id"],
  ["Resource", "_id"],
  // Our improvement: Buffalo gives `menus_id`.
  ["MenusResource", "menu_id"],
  ["MediaServicesResource", "media_service_id"],
  // flect name tests (11k ParamID), given as identifiers rather than class names.
  ["foo_bar", "foo_bar_id"],
  ["admin/widget", "admin_widget_id"],
  ["admin/widgets", "admin_widget_id"],
  ["widget", "widget_id"],
  ["User", "user_id"],
  ["UserID", "user_id"],
];

/** Path -> route name (NameRoute + `Path`): every case of 11a and section 2. */
export const ROUTE_NAME_CASES: ReadonlyArray<readonly [path: string, name: string]> = [
  ["/", "rootPath"],
  ["", "rootPath"],
  ["/users", "usersPath"],
  ["/users/new", "newUsersPath"],
  ["/users/{user_id}", "userPath"],
  ["/users/{user_id}/children", "userChildrenPath"],
  ["/users/{user_id}/children/{child_id}", "userChildPath"],
  ["/users/{user_id}/children/new", "newUserChildrenPath"],
  ["/users/{user_id}/children/{child_id}/build", "userChildBuildPath"],
  ["/admin/planes", "adminPlanesPath"],
  ["/admin/planes/{plane_id}", "adminPlanePath"],
  ["/admin/planes/{plane_id}/edit", "editAdminPlanePath"],
  ["/test", "testPath"],
  ["/tests/{name}", "testNamePath"],
  ["/tests/{name_id}/cases/{case_id}", "testNameIdCasePath"],
  ["/tests/{name_id}/cases/{case_id}/edit", "editTestNameIdCasePath"],
  // 11a.16: an app prefix is part of the path the namer sees.
  ["/test/users", "testUsersPath"],
  ["/widgets/", "widgetsPath"],
  ["/widgets/new/", "newWidgetsPath"],
  ["/widgets/{widget_id}/", "widgetPath"],
  ["/widgets/{widget_id}/edit/", "editWidgetPath"],
  ["/widgets/{widget_id}/images/", "widgetImagesPath"],
  ["/widgets/{widget_id}/images/new/", "newWidgetImagesPath"],
  ["/widgets/{widget_id}/images/{image_id}/", "widgetImagePath"],
  ["/widgets/{widget_id}/images/{image_id}/edit/", "editWidgetImagePath"],
  ["/users/{id}/edit/", "editUserPath"],
  ["/users/{user_id}/edit/name/", "editUserNamePath"],
  ["/users/{user_id}/new/", "newUserPath"],
  ["/users/{user_id}/posts/{post_id}/comments/{comment_id}/", "userPostCommentPath"],
  ["/pagano/{id}/", "paganoPath"],
  ["/car/{car_id}/", "carPath"],
  ["/car/", "carPath"],
  ["/api/v1/users/", "apiV1UsersPath"],
  // The acronym is upper-cased only when it is not the first word.
  ["/api/v1/widgets/{widget_id}/edit/", "editAPIV1WidgetPath"],
  // `Id`, not `ID`: the brace glued to the word defeats the acronym table (as in Buffalo).
  ["/fooz/{widget_id}/", "foozWidgetIdPath"],
  ["/articles/{id:[0-9]+}/", "articleId09Path"],
  ["/{name:.+}/", "unnamedPath"],
  ["/admin/{path:.+}/", "adminPath"],
  ["/index.html/", "indexhtmlPath"],
  ["/foo-bar/", "fooBarPath"],
  ["/{lang}/widgets/", "widgetsPath"],
  ["/users/{userId}/", "userPath"],
  // Buffalo: `menusPath` (flect keeps "menus"); we singularize, so the member route is `menuPath`.
  ["/menus/{menus_id}/", "menuPath"],
  // Buffalo: `menusMenuIdPath` ("{menu_id}" does not contain flect's "menus"); ours drops the
  // param as for every other resource.
  ["/menus/{menu_id}/", "menuPath"],
];

/** RouteInfo.Name cases (11b). */
export const PATH_NAME_CASES: ReadonlyArray<readonly [name: string, pathName: string]> = [
  ["cool", "coolPath"],
  ["coolPath", "coolPath"],
  ["coco_path", "cocoPath"],
  ["ouch_something_cool", "ouchSomethingCoolPath"],
  ["fooID", "fooIDPath"],
  ["myPeeps", "myPeepsPath"],
  ["root", "rootPath"],
];

/** The fields of `names()` checked per input (a subset; the rest is checked in names.test.ts). */
export interface NamesCase {
  readonly input: string;
  readonly singular: string;
  readonly plural: string;
  readonly model: string;
  readonly resourceClass: string;
  readonly paramKey: string;
  readonly urlPath: string;
  readonly templateFolder: string;
  readonly fileBase: string;
  readonly human: string;
  readonly humanPlural: string;
  readonly routeNames: { list: string; new: string; show: string; edit: string };
}

const widget = {
  singular: "widget",
  plural: "widgets",
  model: "Widget",
  resourceClass: "WidgetsResource",
  paramKey: "widget_id",
  urlPath: "/widgets",
  templateFolder: "widgets",
  fileBase: "widgets",
  human: "Widget",
  humanPlural: "Widgets",
  routeNames: {
    list: "widgetsPath",
    new: "newWidgetsPath",
    show: "widgetPath",
    edit: "editWidgetPath",
  },
};

const userProfile = {
  singular: "user_profile",
  plural: "user_profiles",
  model: "UserProfile",
  resourceClass: "UserProfilesResource",
  paramKey: "user_profile_id",
  urlPath: "/user_profiles",
  templateFolder: "user_profiles",
  fileBase: "user_profiles",
  human: "User Profile",
  humanPlural: "User Profiles",
  routeNames: {
    list: "userProfilesPath",
    new: "newUserProfilesPath",
    show: "userProfilePath",
    edit: "editUserProfilePath",
  },
};

/** Resource names in every accepted form (section 5 and 11h), with what they must give. */
export const NAMES_CASES: ReadonlyArray<NamesCase> = [
  { input: "widget", ...widget },
  { input: "widgets", ...widget },
  { input: "Widget", ...widget },
  { input: "user_profile", ...userProfile },
  { input: "UserProfile", ...userProfile },
  { input: "user-profile", ...userProfile },
  {
    input: "admin/widget",
    singular: "widget",
    plural: "widgets",
    model: "Widget",
    resourceClass: "AdminWidgetsResource",
    paramKey: "admin_widget_id",
    urlPath: "/admin/widgets",
    templateFolder: "admin/widgets",
    fileBase: "admin_widgets",
    human: "Widget",
    humanPlural: "Widgets",
    routeNames: {
      list: "adminWidgetsPath",
      new: "newAdminWidgetsPath",
      show: "adminWidgetPath",
      edit: "editAdminWidgetPath",
    },
  },
  {
    input: "admin/planes",
    singular: "plane",
    plural: "planes",
    model: "Plane",
    resourceClass: "AdminPlanesResource",
    paramKey: "admin_plane_id",
    urlPath: "/admin/planes",
    templateFolder: "admin/planes",
    fileBase: "admin_planes",
    human: "Plane",
    humanPlural: "Planes",
    routeNames: {
      list: "adminPlanesPath",
      new: "newAdminPlanesPath",
      show: "adminPlanePath",
      edit: "editAdminPlanePath",
    },
  },
  {
    input: "person",
    singular: "person",
    plural: "people",
    model: "Person",
    resourceClass: "PeopleResource",
    paramKey: "person_id",
    urlPath: "/people",
    templateFolder: "people",
    fileBase: "people",
    human: "Person",
    humanPlural: "People",
    routeNames: {
      list: "peoplePath",
      new: "newPeoplePath",
      show: "personPath",
      edit: "editPersonPath",
    },
  },
  {
    input: "ouch",
    singular: "ouch",
    plural: "ouches",
    model: "Ouch",
    resourceClass: "OuchesResource",
    paramKey: "ouch_id",
    urlPath: "/ouches",
    templateFolder: "ouches",
    fileBase: "ouches",
    human: "Ouch",
    humanPlural: "Ouches",
    routeNames: {
      list: "ouchesPath",
      new: "newOuchesPath",
      show: "ouchPath",
      edit: "editOuchPath",
    },
  },
  {
    // Uncountable: the list route gets Rails' `Index` so it does not collide with the member
    // route (Buffalo would name both `newsPath`).
    input: "news",
    singular: "news",
    plural: "news",
    model: "News",
    resourceClass: "NewsResource",
    paramKey: "news_id",
    urlPath: "/news",
    templateFolder: "news",
    fileBase: "news",
    human: "News",
    humanPlural: "News",
    routeNames: {
      list: "newsIndexPath",
      new: "newNewsPath",
      show: "newsPath",
      edit: "editNewsPath",
    },
  },
  {
    // Buffalo gives `menus_id` and `menusPath` for the member; we singularize "menus".
    input: "menu",
    singular: "menu",
    plural: "menus",
    model: "Menu",
    resourceClass: "MenusResource",
    paramKey: "menu_id",
    urlPath: "/menus",
    templateFolder: "menus",
    fileBase: "menus",
    human: "Menu",
    humanPlural: "Menus",
    routeNames: {
      list: "menusPath",
      new: "newMenusPath",
      show: "menuPath",
      edit: "editMenuPath",
    },
  },
  {
    input: "category",
    singular: "category",
    plural: "categories",
    model: "Category",
    resourceClass: "CategoriesResource",
    paramKey: "category_id",
    urlPath: "/categories",
    templateFolder: "categories",
    fileBase: "categories",
    human: "Category",
    humanPlural: "Categories",
    routeNames: {
      list: "categoriesPath",
      new: "newCategoriesPath",
      show: "categoryPath",
      edit: "editCategoryPath",
    },
  },
  {
    input: "media_service",
    singular: "media_service",
    plural: "media_services",
    model: "MediaService",
    resourceClass: "MediaServicesResource",
    paramKey: "media_service_id",
    urlPath: "/media_services",
    templateFolder: "media_services",
    fileBase: "media_services",
    human: "Media Service",
    humanPlural: "Media Services",
    routeNames: {
      list: "mediaServicesPath",
      new: "newMediaServicesPath",
      show: "mediaServicePath",
      edit: "editMediaServicePath",
    },
  },
  {
    input: "api_key",
    singular: "api_key",
    plural: "api_keys",
    model: "APIKey",
    resourceClass: "APIKeysResource",
    paramKey: "api_key_id",
    urlPath: "/api_keys",
    templateFolder: "api_keys",
    fileBase: "api_keys",
    human: "API Key",
    humanPlural: "API Keys",
    routeNames: {
      list: "apiKeysPath",
      new: "newAPIKeysPath",
      show: "apiKeyPath",
      edit: "editAPIKeyPath",
    },
  },
  {
    input: "resources",
    singular: "resource",
    plural: "resources",
    model: "Resource",
    resourceClass: "ResourcesResource",
    paramKey: "resource_id",
    urlPath: "/resources",
    templateFolder: "resources",
    fileBase: "resources",
    human: "Resource",
    humanPlural: "Resources",
    routeNames: {
      list: "resourcesPath",
      new: "newResourcesPath",
      show: "resourcePath",
      edit: "editResourcePath",
    },
  },
];
