import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import {
  HomeHandler,
  ImagesResource,
  PeopleResource,
  UserProfilesResource,
  WidgetsResource,
} from "../app/test-support/resources.js";
import type { RouteInfo } from "./route-info.js";
import { formatRouteJson, formatRouteTable } from "./route-table.js";

const HOST = "http://127.0.0.1:3000";

/** Buffalo's exact output for a generated app with one widgets resource (reference section 3). */
const BUFFALO_WIDGETS = `METHOD | HOST                  | PATH                       | ALIASES | NAME           | HANDLER
------ | ----                  | ----                       | ------- | ----           | -------
GET    | http://127.0.0.1:3000 | /                          |         | rootPath       | coke/actions.HomeHandler
GET    | http://127.0.0.1:3000 | /widgets/                  |         | widgetsPath    | coke/actions.WidgetsResource.List
POST   | http://127.0.0.1:3000 | /widgets/                  |         | widgetsPath    | coke/actions.WidgetsResource.Create
GET    | http://127.0.0.1:3000 | /widgets/new/              |         | newWidgetsPath | coke/actions.WidgetsResource.New
GET    | http://127.0.0.1:3000 | /widgets/{widget_id}/      |         | widgetPath     | coke/actions.WidgetsResource.Show
PUT    | http://127.0.0.1:3000 | /widgets/{widget_id}/      |         | widgetPath     | coke/actions.WidgetsResource.Update
DELETE | http://127.0.0.1:3000 | /widgets/{widget_id}/      |         | widgetPath     | coke/actions.WidgetsResource.Destroy
GET    | http://127.0.0.1:3000 | /widgets/{widget_id}/edit/ |         | editWidgetPath | coke/actions.WidgetsResource.Edit
`;

function app(build: (app: App) => void): RouteInfo[] {
  const a = new App({ name: "coke", host: HOST });
  a.get("/", HomeHandler);
  build(a);
  return a.routes();
}

const CASES: Record<string, RouteInfo[]> = {
  widgets: app((a) => a.resource("/widgets", new WidgetsResource())),
  "nested-images": app((a) =>
    a.resource("/widgets", new WidgetsResource()).resource("/images", new ImagesResource()),
  ),
  people: app((a) => a.resource("/people", new PeopleResource())),
  "user-profiles": app((a) => a.resource("/user_profiles", new UserProfilesResource())),
};

/** Set UPDATE_GOLDEN=1 to rewrite the fixtures after an intended change, then review the diff. */
function golden(name: string, actual: string): void {
  const file = new URL(`./fixtures/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

describe("formatRouteTable", () => {
  it("reproduces Buffalo's layout byte for byte", () => {
    const rows = CASES.widgets!.map((r) => ({ ...r, handler: `coke/actions.${r.handler}` }));
    expect(formatRouteTable(rows)).toBe(BUFFALO_WIDGETS);
  });

  it("prints aliases joined by spaces", () => {
    const table = formatRouteTable([
      {
        method: "GET",
        host: HOST,
        path: "/",
        aliases: ["/home", "/index"],
        name: "rootPath",
        handler: "HomeHandler",
      },
    ]);
    expect(table.split("\n")[2]).toBe(
      `GET    | ${HOST} | /    | /home /index | rootPath | HomeHandler`,
    );
  });

  it("prints only the header for an app without routes", () => {
    expect(formatRouteTable([])).toBe(
      "METHOD | HOST | PATH | ALIASES | NAME | HANDLER\n------ | ---- | ---- | ------- | ---- | -------\n",
    );
  });

  it.each(Object.keys(CASES))("golden table: %s", (name) => {
    golden(`${name}.txt`, formatRouteTable(CASES[name]!));
  });
});

describe("formatRouteJson", () => {
  it.each(Object.keys(CASES))("golden JSON: %s", (name) => {
    golden(`${name}.json`, formatRouteJson(CASES[name]!));
  });

  it("prints the same rows as the table, in the same order", () => {
    const rows = JSON.parse(formatRouteJson(CASES["nested-images"]!)) as RouteInfo[];
    expect(rows).toEqual(CASES["nested-images"]);
  });
});
