import { describe, expect, it } from "vitest";
import { names, singularNames } from "./names.js";
import { paramKeyFromClassName } from "./param-key.js";
import { routeNameForPath } from "./route-name.js";
import { NAMES_CASES } from "./test-support/cases.js";

describe("names", () => {
  it.each(NAMES_CASES)("$input", (c) => {
    const n = names(c.input);
    expect({
      input: n.input,
      singular: n.singular,
      plural: n.plural,
      model: n.model,
      resourceClass: n.resourceClass,
      paramKey: n.paramKey,
      urlPath: n.urlPath,
      templateFolder: n.templateFolder,
      fileBase: n.fileBase,
      human: n.human,
      humanPlural: n.humanPlural,
      routeNames: { ...n.routeNames },
    }).toEqual(c);
  });

  it.each([
    ["author", "an author"],
    ["user_profile", "a user profile"],
    ["image", "an image"],
    ["widget", "a widget"],
  ])("names one %s for people with its article: %s", (input, expected) => {
    expect(names(input).humanWithArticle).toBe(expected);
  });

  it("gives every field for admin/widget", () => {
    expect(names("admin/widget")).toEqual({
      input: "admin/widget",
      namespace: ["admin"],
      singular: "widget",
      plural: "widgets",
      model: "Widget",
      modelPlural: "Widgets",
      modelVar: "widget",
      modelVarPlural: "widgets",
      table: "widgets",
      resourceClass: "AdminWidgetsResource",
      paramKey: "admin_widget_id",
      urlPath: "/admin/widgets",
      memberPath: "/admin/widgets/{admin_widget_id}",
      templateFolder: "admin/widgets",
      fileBase: "admin_widgets",
      modelFileBase: "widget",
      i18nKey: "widget",
      human: "Widget",
      humanPlural: "Widgets",
      humanWithArticle: "a widget",
      routeNames: {
        list: "adminWidgetsPath",
        new: "newAdminWidgetsPath",
        show: "adminWidgetPath",
        edit: "editAdminWidgetPath",
      },
      migrationName: "create_widgets",
    });
  });

  it("gives the model-side names for user_profile", () => {
    const n = names("UserProfile");
    expect([n.model, n.modelPlural, n.modelVar, n.modelVarPlural]).toEqual([
      "UserProfile",
      "UserProfiles",
      "userProfile",
      "userProfiles",
    ]);
    expect([n.table, n.i18nKey, n.modelFileBase, n.migrationName]).toEqual([
      "user_profiles",
      "user_profile",
      "user_profile",
      "create_user_profiles",
    ]);
    expect(n.namespace).toEqual([]);
  });

  it("normalises each namespace part to snake_case", () => {
    const n = names("Admin/SuperUser/widget");
    expect(n.namespace).toEqual(["admin", "super_user"]);
    expect(n.urlPath).toBe("/admin/super_user/widgets");
    expect(n.resourceClass).toBe("AdminSuperUserWidgetsResource");
    expect(n.paramKey).toBe("admin_super_user_widget_id");
  });

  it.each(NAMES_CASES)("$input: paramKey agrees with paramKeyFromClassName(resourceClass)", (c) => {
    const n = names(c.input);
    expect(paramKeyFromClassName(n.resourceClass)).toBe(n.paramKey);
  });

  it.each(NAMES_CASES)("$input: route names are those of the real paths", (c) => {
    const n = names(c.input);
    expect(routeNameForPath(`${n.urlPath}/new/`)).toBe(n.routeNames.new);
    expect(routeNameForPath(`${n.memberPath}/`)).toBe(n.routeNames.show);
    expect(routeNameForPath(`${n.memberPath}/edit/`)).toBe(n.routeNames.edit);
    expect(routeNameForPath(`${n.urlPath}/`, { collection: true })).toBe(n.routeNames.list);
    expect(n.routeNames.list).not.toBe(n.routeNames.show);
  });

  it("returns a frozen object, nested parts included", () => {
    const n = names("widget");
    expect(Object.isFrozen(n)).toBe(true);
    expect(Object.isFrozen(n.namespace)).toBe(true);
    expect(Object.isFrozen(n.routeNames)).toBe(true);
  });

  it.each(["", "1widget", "class", "wid get"])("throws the validation message for %j", (input) => {
    expect(() => names(input)).toThrow(/^resource name/);
  });

  it("gives the singular names of a singular resource (app.singleton)", () => {
    const n = singularNames("admin/setting");
    expect({
      resourceClass: n.resourceClass,
      urlPath: n.urlPath,
      memberPath: n.memberPath,
      fileBase: n.fileBase,
      model: n.model,
      routeNames: { ...n.routeNames },
    }).toEqual({
      resourceClass: "AdminSettingResource",
      urlPath: "/admin/setting",
      memberPath: "/admin/setting",
      fileBase: "admin_setting",
      model: "Setting",
      routeNames: {
        list: "",
        new: "newAdminSettingPath",
        show: "adminSettingPath",
        edit: "editAdminSettingPath",
      },
    });
    expect(singularNames("profiles").resourceClass).toBe("ProfileResource");
  });
});
