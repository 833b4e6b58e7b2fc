import { describe, expect, it } from "vitest";
import {
  loadTypeScript,
  nestedIn,
  readDeclarations,
  registeredName,
  unregister,
} from "./app-declarations.js";

const ts = loadTypeScript(process.cwd());

const HEAD = [
  'import { App } from "wisent";',
  'import { AuthorsResource } from "./actions/authors.js";',
  'import { HomeHandler } from "./actions/home.js";',
  "// wisent:imports (generated resources' imports go above this line)",
  "",
  'export const app = new App({ name: "library" });',
  'app.get("/", HomeHandler);',
  'export const authors = app.resource("/authors", new AuthorsResource());',
];
const TAIL = [
  "// wisent:resources (generated resources are declared above this line)",
  'app.serveFiles("/", "public");',
  "",
];
const BOOKS_IMPORT = 'import { BooksResource } from "./actions/books.js";';
/** The app with the books import (after authors') and these registration lines. */
const appWith = (...registration: string[]) =>
  [...HEAD.slice(0, 2), BOOKS_IMPORT, ...HEAD.slice(2), ...registration, ...TAIL].join("\n");
const WITHOUT = [...HEAD, ...TAIL].join("\n");

/** Ways a user or a formatter leaves the books registration: all are removed whole. */
const REMOVED: ReadonlyArray<readonly [string, string[]]> = [
  ["as generated", ['export const books = app.resource("/books", new BooksResource());']],
  [
    "with an options object on one line",
    [
      'export const books = app.resource("/books", new BooksResource(), { authenticate: ["create", "update", "destroy"] });',
    ],
  ],
  [
    "reformatted by Biome over several lines",
    [
      "export const books = app.resource(",
      '  "/books",',
      "  new BooksResource(),",
      '  { authenticate: ["create", "update", "destroy"] },',
      ");",
    ],
  ],
  [
    "options spread over lines with a comment inside",
    [
      "export const books = app.resource(",
      '  "/books", // the catalogue',
      "  new BooksResource(),",
      "  {",
      '    authenticate: ["create"],',
      '    only: ["list", "show", "create"],',
      "  },",
      ");",
    ],
  ],
  ["without a variable", ['app.resource("/books", new BooksResource());']],
  ["indented, with a trailing comment", ['  app.resource("/books", new BooksResource()); // mine']],
  [
    "an anonymous subclass",
    ['export const books = app.resource("/books", new (class extends BooksResource {})());'],
  ],
  ["a singleton", ['app.singleton("/books", new BooksResource());']],
  [
    "nested under authors",
    ['export const authorBooks = authors.resource("/books", new BooksResource());'],
  ],
];

describe("unregister", () => {
  it.each(REMOVED)("removes the registration %s and its import", (_, lines) => {
    expect(unregister(ts, appWith(...lines), "BooksResource")).toEqual({
      source: WITHOUT,
      changed: true,
    });
  });

  it("takes only its own link out of a chain", () => {
    const chained = appWith(
      'app.resource("/shelves", new AuthorsResource()).resource("/books", new BooksResource(), {',
      '  authenticate: ["create"],',
      "});",
    );
    const { source } = unregister(ts, chained, "BooksResource");
    expect(source).toContain('app.resource("/shelves", new AuthorsResource());\n');
    expect(source).not.toContain("Books");
  });

  it("keeps the other names of a shared import", () => {
    const shared = appWith('app.resource("/books", new BooksResource());').replace(
      BOOKS_IMPORT,
      'import { BooksResource, BOOK_LIMIT } from "./actions/books.js";\nconsole.log(BOOK_LIMIT);',
    );
    const { source } = unregister(ts, shared, "BooksResource");
    expect(source).toContain('import { BOOK_LIMIT } from "./actions/books.js";');
    expect(source).not.toContain("BooksResource");
  });

  it("leaves an app without the class alone", () => {
    expect(unregister(ts, WITHOUT, "BooksResource")).toEqual({ source: WITHOUT, changed: false });
  });

  /** Taking these out would leave code that does not compile: refused, naming the line. */
  const REFUSED: ReadonlyArray<readonly [string, string[], RegExp]> = [
    [
      "the class is used elsewhere",
      [
        'export const books = app.resource("/books", new BooksResource());',
        "console.log(BooksResource.name);",
      ],
      /^src\/app.ts:11 uses BooksResource: remove it by hand/,
    ],
    [
      "the registration's variable is used",
      [
        'export const books = app.resource("/books", new BooksResource());',
        'books.get("/stats", HomeHandler);',
      ],
      /^src\/app.ts:11 uses books, the variable BooksResource is registered as/,
    ],
    [
      "the registration is inside a function",
      ["function mount() {", '  app.resource("/books", new BooksResource());', "}"],
      /^src\/app.ts:11 registers BooksResource, but it is part of a larger statement/,
    ],
    [
      "something is chained on it",
      ['app.resource("/books", new BooksResource()).get("/x", HomeHandler);'],
      /^src\/app.ts:10 registers BooksResource, but something is chained on it \(.get\)/,
    ],
  ];
  it.each(REFUSED)("refuses when %s", (_, lines, message) => {
    expect(() => unregister(ts, appWith(...lines), "BooksResource")).toThrow(message);
  });
});

describe("readDeclarations", () => {
  it("finds registrations under any variable, with what is nested in them", () => {
    const source = appWith(
      "export const library = app.resource(",
      '  "/books",',
      "  new BooksResource(),",
      ");",
      'export const chapters = library.resource("/chapters", new ChaptersResource());',
    );
    const declarations = readDeclarations(ts, source);
    const books = declarations.registrations.find((r) => r.className === "BooksResource")!;
    expect(books).toMatchObject({ variable: "library", receiver: "app", path: "/books", line: 10 });
    expect(nestedIn(declarations, books).map((r) => r.variable)).toEqual(["chapters"]);
    expect(declarations.registrations.map(registeredName)).toEqual(["author", "book", "chapter"]);
  });
});
