import { describe, expect, it } from "vitest";
import { insertAppLines, removeAppLines } from "./app-registration.js";
import { IMPORTS_MARKER, RESOURCES_MARKER } from "./resource-plan.js";

const APP = [
  'import { App } from "wisent";',
  'import { HomeHandler } from "./actions/home.js";',
  'import { db } from "./db.js";',
  "// wisent:imports (generated resources' imports go above this line)",
  "",
  'export const app = new App({ name: "shop" });',
  'app.get("/", HomeHandler);',
  "  // wisent:resources (generated resources are declared above this line)",
  'app.serveFiles("/", "public");',
  "",
].join("\n");

const edit = (marker: string, line: string) => ({ path: "src/app.ts" as const, marker, line });
const WIDGETS = [
  edit(IMPORTS_MARKER, 'import { WidgetsResource } from "./actions/widgets.js";'),
  edit(RESOURCES_MARKER, 'export const widgets = app.resource("/widgets", new WidgetsResource());'),
];

describe("insertAppLines / removeAppLines", () => {
  it("inserts imports in path order and resources above the marker, with its indent", () => {
    const { source, changed } = insertAppLines(APP, WIDGETS);
    expect(changed).toBe(true);
    const lines = source.split("\n");
    expect(lines.slice(1, 5)).toEqual([
      'import { HomeHandler } from "./actions/home.js";',
      'import { WidgetsResource } from "./actions/widgets.js";',
      'import { db } from "./db.js";',
      "// wisent:imports (generated resources' imports go above this line)",
    ]);
    const resource = lines.indexOf(
      '  export const widgets = app.resource("/widgets", new WidgetsResource());',
    );
    expect(resource).toBeGreaterThan(lines.indexOf('app.get("/", HomeHandler);'));
    expect(lines[resource + 1]).toContain("wisent:resources");
    expect(lines.at(-2)).toBe('app.serveFiles("/", "public");');
  });

  it("does not insert a line twice", () => {
    const once = insertAppLines(APP, WIDGETS).source;
    expect(insertAppLines(once, WIDGETS)).toEqual({ source: once, changed: false });
  });

  it("removal gives the file back byte for byte, also after a formatter wrapped a line", () => {
    const inserted = insertAppLines(APP, WIDGETS).source;
    expect(removeAppLines(inserted, WIDGETS)).toEqual({ source: APP, changed: true });
    const wrapped = inserted.replace(
      '  export const widgets = app.resource("/widgets", new WidgetsResource());',
      '  export const widgets = app.resource(\n    "/widgets",\n    new WidgetsResource(),\n  );',
    );
    expect(removeAppLines(wrapped, WIDGETS).source).toBe(APP);
  });

  it("leaves a similar but different line alone", () => {
    const other = APP.replace(
      'app.get("/", HomeHandler);',
      'app.get("/", HomeHandler);\nexport const widgetsV2 = app.resource("/widgets", new WidgetsResource());',
    );
    expect(removeAppLines(other, WIDGETS).changed).toBe(false);
  });

  it("names a missing marker", () => {
    expect(() => insertAppLines(APP.replace("// wisent:imports", "// imports"), WIDGETS)).toThrow(
      'src/app.ts has no "// wisent:imports" line',
    );
  });
});
